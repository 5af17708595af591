// The answer cache, export_cache and import_cache (the original agent-lsp's team-shared reference
// cache) with pyright on a copy of the example workspace: off until a workspace opts in; an answer exported from one checkout,
// imported by a fresh front (fresh home, fresh server) in another checkout of the same files at
// another path, is served from the cache and equals the live answer; an edit to another file the
// answer depends on (a new call in checkout.py, the query being about pricing.py) is never served
// from the cache; answers naming files outside the exporting workspace, and the original's SQLite
// artifact, are refused clearly.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { EXAMPLE_WORKSPACE } from '../helpers/paths.js';

const REFERENCES = { file_path: 'py/shop/pricing.py', line: 6, column: 5 };

describe('answer cache: export_cache / import_cache with pyright', () => {
  const agents: AgentLspClient[] = [];
  let base: string;
  let first: string;
  let second: string;
  let live: Record<string, unknown>;

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-answers-')));
    first = join(base, 'first');
    second = join(base, 'second');
    cpSync(EXAMPLE_WORKSPACE, first, { recursive: true });
    cpSync(EXAMPLE_WORKSPACE, second, { recursive: true });
  });
  afterAll(async () => {
    for (const a of agents) await a.close();
    rmSync(base, { recursive: true, force: true });
  });

  async function front(root: string): Promise<AgentLspClient> {
    const agent = await startAgentLsp();
    agents.push(agent);
    ok(await agent.call('start_lsp', { root_dir: root }));
    return agent;
  }

  it('keeps nothing until the workspace opts in (export_cache turns it on), then serves a kept answer while no file changed, and exports it', async () => {
    const agent = await front(first);
    live = ok(await agent.call('find_references', REFERENCES));
    expect(live['from_cache']).toBeUndefined();
    expect(live['total']).toBeGreaterThanOrEqual(4);
    const empty = ok(await agent.call('export_cache', { dest_path: '.agent-lsp/cache.json.gz' }));
    expect(empty).toMatchObject({ entries: 0, current: 0 });
    expect(empty['note']).toMatch(/was not on in this workspace; it is now/);
    const kept = ok(await agent.call('find_references', REFERENCES));
    expect(kept['from_cache']).toBeUndefined();
    const again = ok(await agent.call('find_references', REFERENCES));
    expect(again['from_cache']).toMatchObject({ workspace_files: expect.any(Number) });
    expect(again['locations']).toEqual(live['locations']);
    // An answer naming a file outside the workspace (the builtin sum, in pyright's typeshed).
    const builtin = ok(await agent.call('go_to_definition', { file_path: 'py/shop/pricing.py', line: 8, column: 16 }));
    expect((builtin['locations'] as { file: string }[])[0]?.file).toMatch(/^\//);
    const exported = ok(await agent.call('export_cache', { dest_path: '.agent-lsp/cache.json.gz' }));
    expect(exported).toMatchObject({ path: '.agent-lsp/cache.json.gz', entries: 2, current: 2 });
    expect(exported['note']).toBeUndefined();
  }, 120_000);

  it('a fresh front in another checkout imports it and answers from it, equal to the live answer; the answer naming a library is not taken', async () => {
    const agent = await front(second);
    const imported = ok(await agent.call('import_cache', { src_path: join(first, '.agent-lsp', 'cache.json.gz') }));
    expect(imported).toMatchObject({ imported: 1, current: 1, outside_workspace: 1, malformed: 0, from_root: first });
    const served = ok(await agent.call('find_references', REFERENCES));
    expect(served['from_cache']).toBeDefined();
    expect(served['locations']).toEqual(live['locations']);
    expect(served['total']).toBe(live['total']);
  }, 120_000);

  it('an edit to another file the answer depends on is never served from the cache: the live answer has the new reference', async () => {
    const agent = agents[1]!;
    const checkout = join(second, 'py', 'shop', 'checkout.py');
    writeFileSync(checkout, `${readFileSync(checkout, 'utf8')}\n\ndef again() -> float:\n    return compute_total([3.0])\n`);
    const after = ok(await agent.call('find_references', REFERENCES));
    expect(after['from_cache']).toBeUndefined();
    expect(after['total']).toBe((live['total'] as number) + 1);
    expect(after['locations']).toContainEqual(expect.objectContaining({ file: 'py/shop/checkout.py', line: 18 }));
  }, 120_000);

  it('refuses the original agent-lsp\'s SQLite cache and a file that is no artifact, importing nothing', async () => {
    const agent = agents[1]!;
    const dir = join(base, 'artifacts');
    mkdirSync(dir);
    writeFileSync(join(dir, 'cache.db.gz'), gzipSync(Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(100)])));
    writeFileSync(join(dir, 'plain.txt'), 'not gzip');
    const sqlite = await agent.call('import_cache', { src_path: join(dir, 'cache.db.gz') });
    expect(sqlite.isError).toBe(true);
    expect(sqlite.text).toMatch(/original agent-lsp's SQLite cache.*Nothing was imported/s);
    const plain = await agent.call('import_cache', { src_path: join(dir, 'plain.txt') });
    expect(plain.isError).toBe(true);
    expect(plain.text).toMatch(/not a gzip file.*Nothing was imported/);
  }, 60_000);
});
