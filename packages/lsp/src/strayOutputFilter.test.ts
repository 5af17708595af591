import { PassThrough } from 'node:stream';
import { StreamMessageReader, type Message } from 'vscode-jsonrpc/node';
import { describe, expect, it } from 'vitest';
import { StrayOutputFilter } from './strayOutputFilter.js';

function frame(message: object): string {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** What a reader behind the filter delivers, and what the filter dropped, for `chunks` written in turn. */
async function read(chunks: readonly (string | Buffer)[]): Promise<{ messages: Message[]; stray: string[]; errors: string[] }> {
  const stray: string[] = [];
  const filter = new StrayOutputFilter((text) => stray.push(text));
  const source = new PassThrough();
  source.pipe(filter);
  const reader = new StreamMessageReader(filter);
  const messages: Message[] = [];
  const errors: string[] = [];
  reader.onError((e) => errors.push(e.message));
  reader.listen((m) => messages.push(m));
  for (const chunk of chunks) source.write(chunk);
  source.end();
  await new Promise((r) => filter.once('end', r));
  await new Promise((r) => setTimeout(r, 10));
  reader.dispose();
  return { messages, stray, errors };
}

const first = { jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'Content-Length: 12 inside a body passes through' } };
const second = { jsonrpc: '2.0', id: 3, result: { contents: 'function area(uint256 width) ✓' } };

describe('StrayOutputFilter', () => {
  it('drops a line printed between two frames (the Solidity server\'s "Downloading compiler"), and the answers after it still arrive', async () => {
    const { messages, stray, errors } = await read([frame(first) + 'Downloading compiler 0.8.16\n' + frame(second)]);
    expect(errors).toEqual([]);
    expect(messages).toEqual([first, second]);
    expect(stray).toEqual(['Downloading compiler 0.8.16\n']);
  });

  it('finds the frames whatever the chunks cut: inside a header name, the stray text or a multi-byte character', async () => {
    const bytes = Buffer.from('noise before\n' + frame(first) + 'Downloading compiler 0.8.16\n' + frame(second) + 'trailing');
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
    const { messages, stray, errors } = await read(chunks);
    expect(errors).toEqual([]);
    expect(messages).toEqual([first, second]);
    expect(stray.join('')).toBe('noise before\nDownloading compiler 0.8.16\ntrailing');
  });

  it('passes clean frames, header names in any case and a Content-Type header included, unchanged and reports nothing', async () => {
    const body = JSON.stringify(second);
    const typed = `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const lower = frame(first).replace('Content-Length', 'content-length');
    const { messages, stray } = await read([lower, typed]);
    expect(messages).toEqual([first, second]);
    expect(stray).toEqual([]);
  });
});
