import { PassThrough, Writable } from 'node:stream';
import { StreamMessageReader, StreamMessageWriter, type Message } from 'vscode-jsonrpc/node';
import { describe, expect, it } from 'vitest';
import { FramedMessageReader, FramedMessageWriter } from './framing.js';

const messages: Message[] = [
  { jsonrpc: '2.0', id: 1, method: 'textDocument/hover', params: { textDocument: { uri: 'file:///a/ü ß €.ts' }, position: { line: 0, character: 3 } } } as Message,
  { jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///a/b.ts', text: '😀'.repeat(5000) } } } as Message,
  { jsonrpc: '2.0', id: 'x', result: null } as Message,
];

function frameOf(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

function collect(reader: FramedMessageReader): { got: Message[]; errors: Error[] } {
  const got: Message[] = [];
  const errors: Error[] = [];
  reader.onError((e) => errors.push(e));
  reader.listen((m) => got.push(m));
  return { got, errors };
}

describe('FramedMessageReader', () => {
  it('delivers messages synchronously, in order, whatever the chunking', () => {
    const all = Buffer.concat(messages.map(frameOf));
    for (const size of [1, 2, 3, 7, 64, 1000, all.length]) {
      const input = new PassThrough();
      const reader = new FramedMessageReader(input);
      const { got, errors } = collect(reader);
      // 'data' listeners are called synchronously by emit: no event-loop turn is needed.
      for (let at = 0; at < all.length; at += size) input.emit('data', all.subarray(at, at + size));
      expect(errors).toEqual([]);
      expect(got, `chunks of ${size}`).toEqual(messages);
    }
  });

  it('accepts a Content-Type header and header names in any case', () => {
    const input = new PassThrough();
    const { got } = collect(new FramedMessageReader(input));
    const body = Buffer.from(JSON.stringify(messages[2]));
    input.emit('data', Buffer.concat([Buffer.from(`content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH: ${body.length}\r\n\r\n`), body]));
    expect(got).toEqual([messages[2]]);
  });

  it('reports a body that is not JSON and goes on with the next message', () => {
    const input = new PassThrough();
    const { got, errors } = collect(new FramedMessageReader(input));
    input.emit('data', Buffer.concat([Buffer.from('Content-Length: 5\r\n\r\n{oops'), frameOf(messages[0])]));
    expect(errors).toHaveLength(1);
    expect(got).toEqual([messages[0]]);
  });

  it('reports a header without Content-Length and reads nothing after it', () => {
    const input = new PassThrough();
    const { got, errors } = collect(new FramedMessageReader(input));
    input.emit('data', Buffer.concat([Buffer.from('Content-Type: x\r\n\r\n'), frameOf(messages[0])]));
    expect(errors[0]?.message).toMatch(/Content-Length/);
    expect(got).toEqual([]);
  });
});

describe('FramedMessageWriter', () => {
  it('writes each message as one buffer that vscode-jsonrpc\'s own reader reads back', async () => {
    const writes: Buffer[] = [];
    const wire = new PassThrough();
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        writes.push(chunk);
        wire.write(chunk);
        done();
      },
    });
    const writer = new FramedMessageWriter(sink);
    const got: Message[] = [];
    new StreamMessageReader(wire).listen((m) => got.push(m));
    for (const m of messages) await writer.write(m);
    expect(writes).toHaveLength(messages.length);
    expect(writes.map((w) => w.toString('utf8'))).toEqual(messages.map((m) => frameOf(m).toString('utf8')));
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual(messages);
  });

  it('reads what vscode-jsonrpc\'s own writer wrote', async () => {
    const wire = new PassThrough();
    const { got } = collect(new FramedMessageReader(wire));
    const writer = new StreamMessageWriter(wire);
    for (const m of messages) await writer.write(m);
    expect(got).toEqual(messages);
  });

  it('rejects a message that cannot be serialized without writing anything', async () => {
    const writes: Buffer[] = [];
    const writer = new FramedMessageWriter(
      new Writable({
        write(chunk: Buffer, _enc, done) {
          writes.push(chunk);
          done();
        },
      }),
    );
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0', method: 'x' };
    cyclic['params'] = cyclic;
    await expect(writer.write(cyclic as unknown as Message)).rejects.toThrow();
    await writer.write(messages[0] as Message);
    expect(writes).toHaveLength(1);
  });

  it('rejects the write and reports the error when the stream is gone', async () => {
    const sink = new PassThrough();
    const writer = new FramedMessageWriter(sink);
    const errors: unknown[] = [];
    writer.onError((e) => errors.push(e));
    sink.destroy();
    await expect(writer.write(messages[0] as Message)).rejects.toThrow();
    expect(errors.length).toBeGreaterThan(0);
  });
});
