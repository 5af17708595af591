import { PassThrough, type Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardFrames } from './frameGuard.js';

function frame(body: string, extraHeaders = ''): Buffer {
  return Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n${extraHeaders}\r\n${body}`);
}

/** Feeds chunks through the guard; what passed, and the violations reported. */
async function through(chunks: Buffer[], maxFrameBytes?: number): Promise<{ passed: string; violations: string[] }> {
  const source = new PassThrough();
  const violations: string[] = [];
  const out: Readable = guardFrames(source, (r) => violations.push(r), maxFrameBytes === undefined ? {} : { maxFrameBytes });
  const parts: Buffer[] = [];
  out.on('data', (c: Buffer) => parts.push(c));
  const ended = new Promise((r) => out.once('end', r));
  for (const c of chunks) source.write(c);
  source.end();
  await ended;
  return { passed: Buffer.concat(parts).toString(), violations };
}

describe('the frame guard', () => {
  it('passes well-formed frames through unchanged, however the bytes are split', async () => {
    const bytes = Buffer.concat([frame('{"a":1}'), frame('{"b":"é"}', 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n')]);
    const oneByOne = [...bytes].map((b) => Buffer.from([b]));
    for (const chunks of [[bytes], oneByOne]) {
      const r = await through(chunks);
      expect(r.violations).toEqual([]);
      expect(r.passed).toBe(bytes.toString());
    }
  });

  it('stops at a malformed header line and passes nothing of that chunk', async () => {
    const r = await through([frame('{"ok":1}'), Buffer.from('Content-Length: 2\r\nX-Evil: 1\r\n\r\n{}')]);
    expect(r.violations).toEqual([expect.stringMatching(/malformed header line "X-Evil: 1"/)]);
    expect(r.passed).toBe(frame('{"ok":1}').toString());
  });

  it('refuses a frame over the limit, a header without Content-Length, and an endless header', async () => {
    expect((await through([frame('x'.repeat(100))], 50)).violations).toEqual([expect.stringMatching(/frame of 100 bytes exceeds the 50-byte limit/)]);
    expect((await through([Buffer.from('Content-Type: text/plain\r\n\r\n{}')])).violations).toEqual(['header without Content-Length']);
    expect((await through([Buffer.from('Content-Length: 1'.padEnd(2000, ' '))])).violations).toEqual([expect.stringMatching(/header longer than 1024 bytes/)]);
  });

  it('reports only the first violation and ignores everything after it', async () => {
    const r = await through([Buffer.from('Bad\r\n\r\n'), frame('{"later":1}')]);
    expect(r.violations).toHaveLength(1);
    expect(r.passed).toBe('');
  });
});
