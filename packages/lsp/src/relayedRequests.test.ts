import { describe, expect, it } from 'vitest';
import { CancellationTokenSource, Emitter, ResponseError, type Message, type MessageWriter, type RequestMessage } from 'vscode-jsonrpc/node';
import { RELAY_ID_PREFIX, RelayedRequests } from './relayedRequests.js';

function recordingWriter(fail?: Error): MessageWriter & { written: Message[] } {
  const written: Message[] = [];
  return {
    written,
    onError: new Emitter<never>().event,
    onClose: new Emitter<void>().event,
    write: (m) => {
      if (fail) return Promise.reject(fail);
      written.push(m);
      return Promise.resolve();
    },
    end: () => undefined,
    dispose: () => undefined,
  };
}

describe('RelayedRequests', () => {
  it('sends under its own string ids and settles each request with its own response', async () => {
    const writer = recordingWriter();
    const relay = new RelayedRequests(writer);
    const cts = new CancellationTokenSource();
    const a = relay.send('textDocument/hover', { n: 1 }, cts.token);
    const b = relay.send('textDocument/definition', { n: 2 }, cts.token);
    await Promise.resolve();
    const [ra, rb] = writer.written as RequestMessage[];
    expect(ra).toMatchObject({ method: 'textDocument/hover', params: { n: 1 } });
    expect(rb).toMatchObject({ method: 'textDocument/definition', params: { n: 2 } });
    expect(String(ra!.id).startsWith(RELAY_ID_PREFIX)).toBe(true);
    expect(ra!.id).not.toBe(rb!.id);
    // Answers in the other order, one an error.
    expect(relay.take({ jsonrpc: '2.0', id: rb!.id, error: { code: -32602, message: 'bad', data: { x: 1 } } } as Message)).toBe(true);
    expect(relay.take({ jsonrpc: '2.0', id: ra!.id, result: { contents: 'doc' } } as Message)).toBe(true);
    await expect(a).resolves.toEqual({ contents: 'doc' });
    const err = await b.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResponseError);
    expect(err).toMatchObject({ code: -32602, message: 'bad', data: { x: 1 } });
  });

  it('leaves the connection its own responses and every other message', () => {
    const relay = new RelayedRequests(recordingWriter());
    expect(relay.take({ jsonrpc: '2.0', id: 3, result: null } as Message)).toBe(false);
    expect(relay.take({ jsonrpc: '2.0', id: 'other/1', result: null } as Message)).toBe(false);
    expect(relay.take({ jsonrpc: '2.0', id: `${RELAY_ID_PREFIX}0`, method: 'x' } as Message)).toBe(false);
    expect(relay.take({ jsonrpc: '2.0', method: '$/progress', params: {} } as Message)).toBe(false);
    // A late answer to a request given up is consumed, not passed on.
    expect(relay.take({ jsonrpc: '2.0', id: `${RELAY_ID_PREFIX}99`, result: null } as Message)).toBe(true);
  });

  it('tells the server of a cancel under the id the server knows, once', async () => {
    const writer = recordingWriter();
    const relay = new RelayedRequests(writer);
    const cts = new CancellationTokenSource();
    void relay.send('textDocument/references', {}, cts.token).catch(() => undefined);
    await Promise.resolve();
    const id = (writer.written[0] as RequestMessage).id;
    cts.cancel();
    await Promise.resolve();
    expect(writer.written[1]).toEqual({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } });
    relay.take({ jsonrpc: '2.0', id, error: { code: -32800, message: 'cancelled' } } as Message);
    expect(writer.written).toHaveLength(2);
  });

  it('rejects when the write fails', async () => {
    const relay = new RelayedRequests(recordingWriter(new Error('EPIPE')));
    await expect(relay.send('textDocument/hover', {}, new CancellationTokenSource().token)).rejects.toThrow('EPIPE');
  });
});
