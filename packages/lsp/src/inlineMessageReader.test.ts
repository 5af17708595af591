import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StreamMessageReader, type Message } from 'vscode-jsonrpc/node';
import { InlineMessageReader, ralReadable } from './inlineMessageReader.js';

const frame = (body: string) => Buffer.concat([Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`, 'ascii'), Buffer.from(body, 'utf8')]);
const note = (n: number, text = 'x') => JSON.stringify({ jsonrpc: '2.0', method: 'note', params: { n, text } });

function listening(stream = new PassThrough()) {
  const reader = new InlineMessageReader(ralReadable(stream));
  const messages: Message[] = [];
  const errors: Error[] = [];
  reader.onError((e) => errors.push(e));
  reader.listen((m) => messages.push(m));
  return { stream, reader, messages, errors };
}

const paramsOf = (m: Message) => (m as unknown as { params: { n: number; text: string } }).params;
const turn = () => new Promise((r) => setImmediate(r));

describe('InlineMessageReader', () => {
  it('delivers each message in the read callback that completed it, before the loop turns', async () => {
    const { stream, messages } = listening();
    // Queued as the chunk is read, before the reader sees it: a message delivered in a later
    // turn (the library reader's semaphore, a setImmediate) would arrive only after it.
    let seenByNextTurn = -1;
    stream.prependListener('data', () => setImmediate(() => (seenByNextTurn = messages.length)));
    stream.write(frame(note(1)));
    await turn();
    expect(seenByNextTurn).toBe(1);
    expect(paramsOf(messages[0]!).n).toBe(1);
  });

  it('the library reader, for contrast, delivers in a later turn', async () => {
    const stream = new PassThrough();
    const reader = new StreamMessageReader(stream);
    const messages: Message[] = [];
    reader.listen((m) => messages.push(m));
    let seenByNextTurn = -1;
    stream.prependListener('data', () => setImmediate(() => (seenByNextTurn = messages.length)));
    stream.write(frame(note(1)));
    await turn();
    await turn();
    expect(seenByNextTurn).toBe(0);
    expect(messages).toHaveLength(1);
  });

  it('keeps arrival order across several messages in one chunk and frames split anywhere', async () => {
    const { stream, messages, errors } = listening();
    // Multi-byte characters (é, 😀) split between chunks, and headers split mid-line.
    const bytes = Buffer.concat([frame(note(1, 'é')), frame(note(2, '😀 two')), frame(note(3)), frame(note(4, 'ü'.repeat(50)))]);
    for (const size of [1, 3, 7, 64]) {
      messages.length = 0;
      for (let i = 0; i < bytes.length; i += size) stream.write(bytes.subarray(i, i + size));
      await turn();
      expect(messages.map((m) => paramsOf(m).n)).toEqual([1, 2, 3, 4]);
      expect(messages.map((m) => paramsOf(m).text)).toEqual(['é', '😀 two', 'x', 'ü'.repeat(50)]);
    }
    stream.write(bytes);
    await turn();
    expect(messages.slice(4).map((m) => paramsOf(m).n)).toEqual([1, 2, 3, 4]);
    expect(errors).toEqual([]);
  });

  it('reads a message of several megabytes arriving in pipe-sized chunks, and the small one after it', async () => {
    // A whole-file didOpen of a big file, or 1,700 references: far larger than one read.
    const { stream, messages, errors } = listening();
    const big = 'é'.repeat(1_500_000); // 3 MB of UTF-8
    const bytes = Buffer.concat([frame(note(1, big)), frame(note(2))]);
    for (let i = 0; i < bytes.length; i += 65_536) stream.write(bytes.subarray(i, i + 65_536));
    await turn();
    expect(errors).toEqual([]);
    expect(messages.map((m) => paramsOf(m).n)).toEqual([1, 2]);
    expect(paramsOf(messages[0]!).text).toBe(big);
  });

  it('reports a header without Content-Length, a length that is not a number, and a body that is not JSON', async () => {
    for (const [bytes, expected] of [
      [Buffer.from('Content-Type: application/json\r\n\r\n{}', 'ascii'), /Content-Length/],
      [Buffer.from('Content-Length: abc\r\n\r\n{}', 'ascii'), /must be a number/],
      [Buffer.from('Content-Length: 5\r\n\r\n{oops', 'ascii'), /JSON|Unexpected|Expected/],
    ] as const) {
      const { stream, messages, errors } = listening();
      stream.write(bytes);
      await turn();
      expect(messages).toEqual([]);
      expect(errors.map((e) => e.message).join('\n')).toMatch(expected);
    }
  });

  it('a message after a body that is not JSON still arrives, in order', async () => {
    const { stream, messages, errors } = listening();
    stream.write(Buffer.concat([frame('{"jsonrpc":'), frame(note(2))]));
    await turn();
    expect(errors).toHaveLength(1);
    expect(messages.map((m) => paramsOf(m).n)).toEqual([2]);
  });

  it('reports the stream closing and stops listening when disposed', async () => {
    const { stream, reader, messages } = listening();
    let closed = false;
    reader.onClose(() => (closed = true));
    const second = new InlineMessageReader(ralReadable(stream));
    const got: Message[] = [];
    second.listen((m) => got.push(m)).dispose();
    stream.write(frame(note(1)));
    await turn();
    expect(messages).toHaveLength(1);
    expect(got).toEqual([]);
    stream.destroy();
    await turn();
    expect(closed).toBe(true);
  });
});
