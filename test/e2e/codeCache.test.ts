import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';

/**
 * The bundle's loader (scripts/bundleLoader.mjs) runs agent-lsp.cjs with V8's code cache: made by
 * the first front after its first query's answer, then read by every front. A cache that V8
 * rejects (damaged, another Node) is made again; none is read or written with
 * AGENT_LSP_NO_CODE_CACHE=1; where the bundle's directory takes no file, the cache goes to
 * $AGENT_LSP_HOME/code-cache. The bundle is built here, beside dist/ (its modules find the
 * packages' files relative to that depth), so the checkout's own dist/ and its cache are untouched.
 */
const run = promisify(execFile);
const OUT = join(REPO_ROOT, `.code-cache-test-${process.pid}`);
let scratch: string;
let home: string;
let workspace: string;
let buildId: string | undefined;
/** The cache's name (it carries a hash of V8's flags): found once the first front made it. */
let cacheName: string;

async function query(env: Record<string, string> = {}): Promise<number> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(OUT, 'launch.mjs'), 'serve', '--daemon', 'never'],
    env: { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home, ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'code-cache-test', version: '0' });
  await client.connect(transport);
  try {
    await client.listTools();
    const started = (await client.callTool({ name: 'start_lsp', arguments: { root_dir: workspace } }, undefined, { timeout: 300_000 })) as CallToolResult;
    expect(started.isError).toBeFalsy();
    const refs = (await client.callTool({ name: 'find_references', arguments: { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' } }, undefined, { timeout: 300_000 })) as CallToolResult;
    expect(refs.isError).toBeFalsy();
    return (refs.structuredContent as { total: number }).total;
  } finally {
    await client.close();
  }
}

/** The cache's bytes once the file exists (it is written right after the answer, maybe a moment later). */
async function cacheAt(path: string): Promise<Buffer> {
  for (let i = 0; i < 100 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 100));
  return readFileSync(path);
}

beforeAll(async () => {
  await run(process.execPath, [join(REPO_ROOT, 'scripts', 'bundle.mjs'), '--outdir', OUT], { cwd: REPO_ROOT, timeout: 300_000 });
  writeFileSync(join(OUT, 'launch.mjs'), "import('./agent-lsp.mjs').then(({ main }) => main(process.argv));\n");
  buildId = /const BUILD_ID = '([0-9a-f]{16})'/.exec(readFileSync(join(OUT, 'agent-lsp.mjs'), 'utf8'))?.[1];
  expect(buildId).toBeDefined();
  scratch = mkdtempSync(join(tmpdir(), 'agent-lsp-code-cache-'));
  home = join(scratch, 'home');
  workspace = join(scratch, 'python-basic');
  mkdirSync(home);
  cpSync(join(FIXTURES, 'python-basic'), workspace, { recursive: true });
}, 300_000);

afterAll(() => {
  rmSync(OUT, { recursive: true, force: true });
  rmSync(scratch, { recursive: true, force: true });
});

describe('the bundle with V8 code cache', () => {
  it('a front without a cache answers, then stores one beside the bundle; the next front answers from it and leaves it as it is', async () => {
    const caches = () => readdirSync(OUT).filter((f) => f.endsWith('.v8-cache'));
    expect(caches()).toEqual([]);
    expect(await query()).toBe(6);
    for (let i = 0; i < 100 && caches().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(caches()).toHaveLength(1);
    cacheName = caches()[0]!;
    expect(cacheName.startsWith(`agent-lsp-${buildId}-${process.version}-${process.arch}-`)).toBe(true);
    const beside = join(OUT, cacheName);
    const made = await cacheAt(beside);
    expect(made.length).toBeGreaterThan(100_000);
    const before = statSync(beside);
    expect(await query()).toBe(6);
    // Accepted: a rejected cache would have been written again.
    const after = statSync(beside);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect(readdirSync(OUT).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 300_000);

  it('a damaged cache is rejected, the front still answers, and the cache is made again', async () => {
    const beside = join(OUT, cacheName);
    const garbage = Buffer.alloc(200_000, 7);
    writeFileSync(beside, garbage);
    expect(await query()).toBe(6);
    for (let i = 0; i < 100 && readFileSync(beside).equals(garbage); i++) await new Promise((r) => setTimeout(r, 100));
    expect(readFileSync(beside).equals(garbage)).toBe(false);
    // The new one is accepted by the next front.
    const before = statSync(beside);
    expect(await query()).toBe(6);
    expect(statSync(beside).mtimeMs).toBe(before.mtimeMs);
  }, 300_000);

  it('AGENT_LSP_NO_CODE_CACHE=1 neither reads nor writes one', async () => {
    const beside = join(OUT, cacheName);
    rmSync(beside, { force: true });
    expect(await query({ AGENT_LSP_NO_CODE_CACHE: '1' })).toBe(6);
    await new Promise((r) => setTimeout(r, 500));
    expect(existsSync(beside)).toBe(false);
  }, 300_000);

  it('where the bundle directory takes no cache, it goes to $AGENT_LSP_HOME/code-cache', async () => {
    // A directory in the cache's place: neither readable as the cache nor replaceable by it.
    const beside = join(OUT, cacheName);
    mkdirSync(join(beside, 'occupied'), { recursive: true });
    expect(await query()).toBe(6);
    const inHome = join(home, 'code-cache', cacheName);
    expect((await cacheAt(inHome)).length).toBeGreaterThan(100_000);
    const before = statSync(inHome);
    expect(await query()).toBe(6);
    expect(statSync(inHome).mtimeMs).toBe(before.mtimeMs);
    rmSync(beside, { recursive: true, force: true });
  }, 300_000);
});
