import { describe, expect, it } from 'vitest';
import { ErrorCodes, WireError } from '@agent-lsp/protocol';
import { RequestCancelledError } from '@agent-lsp/lsp';
import { askAgainWhileModified } from './askAgain.js';

/** A request that fails with `code` the first `failures` times it is sent, then answers. */
function flaky(failures: number, code: number) {
  let sent = 0;
  const ask = () => {
    sent++;
    return sent <= failures ? Promise.reject(new WireError(code, 'content modified')) : Promise.resolve('answer');
  };
  return { ask, sent: () => sent };
}

const NO_WAIT = [0, 0, 0];

describe('askAgainWhileModified', () => {
  it('asks again while the server says content modified or server cancelled, and returns the answer', async () => {
    const modified = flaky(2, ErrorCodes.ContentModified);
    await expect(askAgainWhileModified('textDocument/hover', modified.ask, new AbortController().signal, NO_WAIT)).resolves.toBe('answer');
    expect(modified.sent()).toBe(3);
    const cancelled = flaky(1, ErrorCodes.ServerCancelled);
    await expect(askAgainWhileModified('textDocument/hover', cancelled.ask, new AbortController().signal, NO_WAIT)).resolves.toBe('answer');
    expect(cancelled.sent()).toBe(2);
    // pyrefly: "Request textDocument/hover (3) is canceled due to subsequent mutation".
    const dropped = flaky(1, ErrorCodes.RequestCancelled);
    await expect(askAgainWhileModified('textDocument/hover', dropped.ask, new AbortController().signal, NO_WAIT)).resolves.toBe('answer');
    expect(dropped.sent()).toBe(2);
  });

  it('never asks again a request our own cancel ended', async () => {
    let sent = 0;
    const ours = () => {
      sent++;
      return Promise.reject(new RequestCancelledError('textDocument/hover'));
    };
    await expect(askAgainWhileModified('textDocument/hover', ours, new AbortController().signal, NO_WAIT)).rejects.toBeInstanceOf(RequestCancelledError);
    expect(sent).toBe(1);
  });

  it('gives up after its pauses with an error that says what the answer means and what to do', async () => {
    const modified = flaky(10, ErrorCodes.ContentModified);
    const err = await askAgainWhileModified('textDocument/hover', modified.ask, new AbortController().signal, NO_WAIT).catch((e: unknown) => e);
    expect(modified.sent()).toBe(4);
    expect(err).toBeInstanceOf(WireError);
    expect((err as WireError).code).toBe(ErrorCodes.ContentModified);
    expect((err as Error).message).toMatch(/answered textDocument\/hover 4 times in a row with "content modified".*call again in a few seconds/);
  });

  it('passes any other error on at once, and stops when the call is aborted', async () => {
    const refused = flaky(1, ErrorCodes.InvalidParams);
    await expect(askAgainWhileModified('textDocument/hover', refused.ask, new AbortController().signal, NO_WAIT)).rejects.toThrow('content modified');
    expect(refused.sent()).toBe(1);
    const aborted = new AbortController();
    const slow = flaky(10, ErrorCodes.ContentModified);
    const pending = askAgainWhileModified('textDocument/hover', slow.ask, aborted.signal, [60_000]);
    aborted.abort();
    await expect(pending).rejects.toThrow();
    expect(slow.sent()).toBe(1);
  });
});
