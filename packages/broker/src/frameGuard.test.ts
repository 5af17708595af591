import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardFrames } from './frameGuard.js';

function frame(body: string): Buffer {
  return Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** Feeds `chunks` through a guard; returns what passed and the violation, if any. */
async function run(chunks: Buffer[], limits: { maxDepth?: number; maxFrameBytes?: number } = {}): Promise<{ passed: string; violation: string | undefined }> {
  const source = new PassThrough();
  let violation: string | undefined;
  const out = guardFrames(source, (reason) => (violation = reason), limits);
  let passed = '';
  out.on('data', (d: Buffer) => (passed += d.toString()));
  const ended = new Promise((r) => out.on('end', r));
  for (const c of chunks) source.write(c);
  source.end();
  await ended;
  return { passed, violation };
}

const nested = (depth: number) => `{"jsonrpc":"2.0","method":"x","params":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;

describe('guardFrames', () => {
  it('passes well-formed frames through unchanged, split anywhere', async () => {
    const bytes = Buffer.concat([frame('{"jsonrpc":"2.0","method":"a","params":{"t":"x\\"]]]]\\\\"}}'), frame(nested(10))]);
    const chunks = [...Array(bytes.length).keys()].map((i) => bytes.subarray(i, i + 1));
    const r = await run(chunks, { maxDepth: 16 });
    expect(r.violation).toBeUndefined();
    expect(r.passed).toBe(bytes.toString());
  });

  it('refuses a body nesting deeper than the limit, counting brackets outside strings only', async () => {
    // 13 levels: the message 1, `params` 1, the array 11; brackets inside strings do not count.
    const body = `{"jsonrpc":"2.0","method":"x","params":{"s":"[[[[[[[[[[[[[[[[[[[[\\"[[[[[[[","a":${'['.repeat(11)}${']'.repeat(11)}}}`;
    expect((await run([frame(body)], { maxDepth: 13 })).violation).toBeUndefined();
    expect((await run([frame(body)], { maxDepth: 12 })).violation).toMatch(/nests deeper than 12 levels/);
    const deep = await run([frame(nested(6000))], { maxDepth: 256 });
    expect(deep.violation).toMatch(/nests deeper than 256 levels/);
    expect(deep.passed).toBe('');
  });

  it('counts nesting per frame, not across frames', async () => {
    // An unbalanced (invalid) body must not carry its depth into the next frame.
    const r = await run([frame('[[[[[[[[[['), frame(nested(10)), frame(nested(10))], { maxDepth: 13 });
    expect(r.violation).toBeUndefined();
  });

  it('refuses malformed and oversized headers', async () => {
    expect((await run([Buffer.from('Content-Lenght: 3\r\n\r\n{}\n')])).violation).toMatch(/malformed header line/);
    expect((await run([frame('x'.repeat(100))], { maxFrameBytes: 50 })).violation).toMatch(/exceeds the 50-byte limit/);
    expect((await run([Buffer.from(`Content-Type: ${'x'.repeat(2000)}`)])).violation).toMatch(/header longer than/);
  });
});
