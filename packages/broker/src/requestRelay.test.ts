import { describe, expect, it } from 'vitest';
import { Emitter, ResponseError, type Message, type MessageWriter } from 'vscode-jsonrpc/node';
import { ErrorCodes } from '@agent-lsp/protocol';
import { RequestRelay, type Forward } from './requestRelay.js';

function recordingWriter(): MessageWriter & { written: Message[] } {
  const written: Message[] = [];
  return {
    written,
    onError: new Emitter<never>().event,
    onClose: new Emitter<void>().event,
    write: (m) => {
      written.push(m);
      return Promise.resolve();
    },
    end: () => undefined,
    dispose: () => undefined,
  };
}

/** A forward the test settles by hand, recording what it was asked. */
function manualForward() {
  const calls: { method: string; params: unknown; signal: AbortSignal; settle(outcome: unknown): void }[] = [];
  const forward: Forward = (method, params, signal) => new Promise((settle) => calls.push({ method, params, signal, settle }));
  return { forward, calls };
}

const request = (id: number | string, method: string, params: unknown = { p: id }): Message => ({ jsonrpc: '2.0', id, method, params }) as Message;
const cancel = (id: number | string): Message => ({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } }) as Message;
const flush = () => new Promise((r) => setImmediate(r));

describe('RequestRelay', () => {
  it('passes requests on and answers each under the id its client gave, whatever order they settle in', async () => {
    const writer = recordingWriter();
    const { forward, calls } = manualForward();
    const relay = new RequestRelay(writer, () => false, forward);
    expect(relay.take(request(1, 'textDocument/hover'))).toBe(true);
    expect(relay.take(request('b', 'textDocument/definition'))).toBe(true);
    expect(calls.map((c) => [c.method, c.params])).toEqual([
      ['textDocument/hover', { p: 1 }],
      ['textDocument/definition', { p: 'b' }],
    ]);
    calls[1]!.settle([{ uri: 'file:///a.ts' }]);
    calls[0]!.settle(undefined);
    await flush();
    expect(writer.written).toEqual([
      { jsonrpc: '2.0', id: 'b', result: [{ uri: 'file:///a.ts' }] },
      { jsonrpc: '2.0', id: 1, result: null },
    ]);
    expect(relay.size).toBe(0);
  });

  it('answers a ResponseError outcome as an error response', async () => {
    const writer = recordingWriter();
    const { forward, calls } = manualForward();
    const relay = new RequestRelay(writer, () => false, forward);
    relay.take(request(4, 'textDocument/hover'));
    calls[0]!.settle(new ResponseError(ErrorCodes.RequestCancelled, 'not sent'));
    await flush();
    expect(writer.written).toEqual([{ jsonrpc: '2.0', id: 4, error: { code: ErrorCodes.RequestCancelled, message: 'not sent' } }]);
  });

  it('leaves the broker its own requests, responses and other notifications', () => {
    const { forward, calls } = manualForward();
    const relay = new RequestRelay(recordingWriter(), (m) => m === 'initialize', forward);
    expect(relay.take(request(1, 'initialize'))).toBe(false);
    expect(relay.take({ jsonrpc: '2.0', id: 1, result: null } as Message)).toBe(false);
    expect(relay.take({ jsonrpc: '2.0', method: 'textDocument/didChange', params: {} } as Message)).toBe(false);
    expect(calls).toHaveLength(0);
  });

  it("aborts a request in flight on its client's cancel, and leaves other ids' cancels to the connection", async () => {
    const writer = recordingWriter();
    const { forward, calls } = manualForward();
    const relay = new RequestRelay(writer, () => false, forward);
    relay.take(request(7, 'textDocument/references'));
    expect(relay.take(cancel(8))).toBe(false);
    expect(relay.take(cancel('7'))).toBe(false); // "7" is not 7
    expect(calls[0]!.signal.aborted).toBe(false);
    expect(relay.take(cancel(7))).toBe(true);
    expect(calls[0]!.signal.aborted).toBe(true);
    // The cancelled request is still answered (by what forward settles with), like the connection does.
    calls[0]!.settle(new ResponseError(ErrorCodes.RequestCancelled, 'cancelled'));
    await flush();
    expect(writer.written).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: ErrorCodes.RequestCancelled, message: 'cancelled' } }]);
    // Answered: its id is free again, and a late cancel of it is no longer the relay's.
    expect(relay.take(cancel(7))).toBe(false);
  });

  it('refuses a second request under the id of one still in flight', async () => {
    const writer = recordingWriter();
    const { forward, calls } = manualForward();
    const relay = new RequestRelay(writer, () => false, forward);
    relay.take(request(2, 'textDocument/hover'));
    relay.take(request(2, 'textDocument/definition'));
    await flush();
    expect(calls).toHaveLength(1);
    expect(writer.written).toEqual([{ jsonrpc: '2.0', id: 2, error: { code: ErrorCodes.InvalidRequest, message: 'request id 2 is already in flight' } }]);
  });

  it('aborts everything in flight when its client goes, and answers nothing more', async () => {
    const writer = recordingWriter();
    const { forward, calls } = manualForward();
    const relay = new RequestRelay(writer, () => false, forward);
    relay.take(request(1, 'textDocument/hover'));
    relay.take(request(2, 'textDocument/hover'));
    relay.close();
    expect(calls.every((c) => c.signal.aborted)).toBe(true);
    for (const c of calls) c.settle(null);
    expect(relay.take(request(3, 'textDocument/hover'))).toBe(true); // taken (not the connection's) but not passed on
    await flush();
    expect(calls).toHaveLength(2);
    expect(writer.written).toEqual([]);
  });

  it('answers InternalError when forward fails unexpectedly', async () => {
    const writer = recordingWriter();
    const relay = new RequestRelay(writer, () => false, () => Promise.reject(new Error('boom')));
    relay.take(request(1, 'textDocument/hover'));
    await flush();
    expect(writer.written).toEqual([{ jsonrpc: '2.0', id: 1, error: { code: ErrorCodes.InternalError, message: 'boom' } }]);
  });
});
