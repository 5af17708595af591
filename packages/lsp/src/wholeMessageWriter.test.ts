import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { StreamMessageReader, type Message, type RequestMessage } from 'vscode-jsonrpc/node';
import { wholeMessageWriter } from './wholeMessageWriter.js';

/** A Writable that records each write the stream layer hands it (a writev counts once). */
function recordingStream(): { stream: Writable; writes: Buffer[] } {
  const writes: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      writes.push(chunk);
      cb();
    },
    writev(chunks, cb) {
      writes.push(Buffer.concat(chunks.map((c) => c.chunk as Buffer)));
      cb();
    },
  });
  return { stream, writes };
}

const request = (id: number, text: string): RequestMessage => ({ jsonrpc: '2.0', id, method: 'textDocument/hover', params: { text } });

describe('wholeMessageWriter', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  it('hands each message, header and body, to the stream in one write', async () => {
    const { stream, writes } = recordingStream();
    const writer = wholeMessageWriter(stream);
    await writer.write(request(1, 'é'));
    await writer.write(request(2, 'x'.repeat(100_000)));
    expect(writes).toHaveLength(2);
    const first = writes[0]!.toString('utf8');
    const body = JSON.stringify(request(1, 'é'));
    expect(first).toBe(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    expect(writes[1]!.toString('utf8')).toMatch(/^Content-Length: \d+\r\n\r\n\{/);
  });

  it("writes what vscode-jsonrpc's reader reads back, in order, over a real socket in one chunk each", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'whole-writer-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 's.sock');
    const accepted = new Promise<Socket>((resolve) => {
      const server: Server = createServer(resolve).listen(path);
      cleanups.push(() => server.close());
    });
    const client = createConnection(path);
    cleanups.push(() => client.destroy());
    const peer = await accepted;
    cleanups.push(() => peer.destroy());
    const chunks: number[] = [];
    peer.on('data', (c: Buffer) => chunks.push(c.length));
    const got: Message[] = [];
    const reader = new StreamMessageReader(peer);
    const all = new Promise<void>((resolve) => reader.listen((m) => got.push(m) === 3 && resolve()));
    const writer = wholeMessageWriter(client);
    const sent = [request(1, 'a'), request(2, 'ünïcode'), request(3, 'c')];
    for (const m of sent) await writer.write(m);
    await all;
    expect(got).toEqual(sent);
    // Each message arrived whole: no chunk is a header alone.
    expect(chunks.every((n) => n > 40)).toBe(true);
  });

  it('rejects the write when the stream is gone, as the plain writer does', async () => {
    const stream = new PassThrough();
    stream.destroy();
    const writer = wholeMessageWriter(stream);
    const errors: unknown[] = [];
    writer.onError(([err]) => errors.push(err));
    await expect(writer.write(request(1, 'a'))).rejects.toThrow();
    expect(errors.length).toBeGreaterThan(0);
  });
});
