import { describe, expect, it } from 'vitest';
import { createMessageConnection, Emitter, Message, type DataCallback, type MessageReader, type MessageWriter } from 'vscode-jsonrpc/node';
import { tapMessages } from './messageTap.js';

/** A reader whose messages the test pushes, each as if read from the stream. */
function pushReader(): { reader: MessageReader; push: (message: Message) => void } {
  let callback: DataCallback | undefined;
  const reader: MessageReader = {
    onError: new Emitter<Error>().event,
    onClose: new Emitter<void>().event,
    onPartialMessage: new Emitter<never>().event,
    listen(cb) {
      callback = cb;
      return { dispose: () => (callback = undefined) };
    },
    dispose: () => undefined,
  };
  return { reader, push: (m) => callback?.(m) };
}

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

const note = (method: string): Message => ({ jsonrpc: '2.0', method, params: {} }) as Message;
const request = (id: number, method: string): Message => ({ jsonrpc: '2.0', id, method, params: {} }) as Message;
const cancel = (id: number): Message => ({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id } }) as Message;
const methodOf = (m: Message) => (Message.isRequest(m) || Message.isNotification(m) ? m.method : undefined);
const turn = () => new Promise((r) => setImmediate(r));
const settle = async () => {
  for (let i = 0; i < 5; i++) await turn();
};

describe('tapMessages', () => {
  it('takes a message read while the connection has nothing queued at once', () => {
    const { reader, push } = pushReader();
    const taken: string[] = [];
    const tapped = tapMessages(reader, (m) => methodOf(m) === 'relay/me' && taken.push('relay/me') > 0);
    const rpc = createMessageConnection(tapped.reader, recordingWriter(), undefined, tapped.options);
    rpc.listen();
    push(request(1, 'relay/me'));
    expect(taken).toEqual(['relay/me']);
    rpc.dispose();
  });

  it('keeps arrival order: a tapped message read behind queued ones waits for them', async () => {
    const { reader, push } = pushReader();
    const handled: string[] = [];
    const tapped = tapMessages(reader, (m) => {
      const method = methodOf(m);
      if (!method?.startsWith('relay/')) return false;
      handled.push(method);
      return true;
    });
    const rpc = createMessageConnection(tapped.reader, recordingWriter(), undefined, tapped.options);
    rpc.onNotification('first', () => void handled.push('first'));
    rpc.onNotification('third', () => void handled.push('third'));
    rpc.listen();
    push(note('first'));
    push(request(1, 'relay/second'));
    push(note('third'));
    push(request(2, 'relay/fourth'));
    expect(handled).toEqual([]);
    await settle();
    expect(handled).toEqual(['first', 'relay/second', 'third', 'relay/fourth']);
    // The queue is empty again: the next one is taken as it is read.
    push(request(3, 'relay/fifth'));
    expect(handled.at(-1)).toBe('relay/fifth');
    rpc.dispose();
  });

  it('lets the connection see the messages the tap leaves, and forget a cancel the tap took from its queue', async () => {
    const { reader, push } = pushReader();
    const cancels: number[] = [];
    const tapped = tapMessages(reader, (m) => {
      if (Message.isNotification(m) && m.method === '$/cancelRequest') {
        cancels.push((m.params as { id: number }).id);
        return true;
      }
      return false;
    });
    const writer = recordingWriter();
    const rpc = createMessageConnection(tapped.reader, writer, undefined, tapped.options);
    const seen: string[] = [];
    rpc.onNotification('queued', () => void seen.push('queued'));
    rpc.onRequest('echo', () => 'echoed');
    rpc.listen();
    push(note('queued'));
    push(cancel(9)); // behind the queued notification: offered to the tap when the queue reaches it
    push(request(5, 'echo'));
    await settle();
    expect(seen).toEqual(['queued']);
    expect(cancels).toEqual([9]);
    expect(writer.written).toContainEqual({ jsonrpc: '2.0', id: 5, result: 'echoed' });
    rpc.dispose();
  });
});
