// The answer cache on real code (export_cache / import_cache, the original agent-lsp's shared
// reference cache): answers about Go's go/ast exported from one copy of the go-std corpus and
// imported by a fresh front (its own home, its own gopls) on another copy at another path are
// served from the cache and equal gopls asked directly on that copy; an outside edit (sed) to a
// file holding callers other than the declaring one, then to the declaring one, is never answered
// from the cache: the answer is the truth with the edit applied (the lines inserted move the
// references below them). Put back byte for byte, the cached answer is right again.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { positionOf } from '../helpers/text.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';
import { locationKeys } from './fieldSuite.js';
import { RawServer, type FieldLocation } from './rawServer.js';

const WALK = 'go/ast/walk.go';
const ARTIFACT = '.agent-lsp/field-cache.json.gz';

const goInstalled = onPath('gopls') && onPath('go');
const exporting: Corpus | NotRun = goInstalled ? prepareCorpus('go-std') : { notRun: 'gopls or go is not installed' };
const importing: Corpus | NotRun = goInstalled ? prepareCorpus('go-std') : exporting;
afterAll(() => {
  for (const c of [exporting, importing]) if (!isNotRun(c)) c.dispose();
});

/** `file:line:...` keys with the references in `file` moved down `by` lines. */
function shifted(keys: readonly string[], file: string, by: number): string[] {
  return keys.map((k) => {
    const m = /^(.*):(\d+):(\d+)-(\d+):(\d+)$/.exec(k)!;
    return m[1] === file ? `${m[1]}:${Number(m[2]) + by}:${m[3]}-${Number(m[4]) + by}:${m[5]}` : k;
  });
}

describe.skipIf(isNotRun(exporting))(`answer cache on ${isNotRun(exporting) ? `Go's standard library: not run (${exporting.notRun})` : exporting.label}`, () => {
  const fronts: AgentLspClient[] = [];
  let raw: RawServer;
  let source: string;
  let target: string;
  let at: { line: number; column: number };
  let truth: string[];

  const front = async (root: string): Promise<AgentLspClient> => {
    const agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(dirname(root), '.home') } });
    fronts.push(agent);
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'go' }));
    return agent;
  };
  const references = async (agent: AgentLspClient): Promise<{ keys: string[]; complete: boolean; fromCache: boolean }> => {
    const data = ok(await agent.call('find_references', { file_path: WALK, ...at, include_declaration: true, limit: 100_000 }));
    return { keys: locationKeys(target, (data['locations'] as FieldLocation[] | undefined) ?? []), complete: data['complete'] !== false, fromCache: data['from_cache'] !== undefined };
  };

  beforeAll(async () => {
    source = (exporting as Corpus).root;
    target = (importing as Corpus).root;
    at = positionOf(join(source, WALK), 'func Walk(');
    at.column += 5;
    raw = await RawServer.start('gopls', target);
    await raw.open(WALK, 'go');
    truth = locationKeys(target, await raw.locations('textDocument/references', WALK, at, { context: { includeDeclaration: true } }));
  }, 240_000);
  afterAll(async () => {
    for (const f of fronts) await f.close();
    await raw?.stop();
  });

  it('exported from one copy and imported on another, ast.Walk\'s references are served from the cache and are gopls\'s own on that copy', async () => {
    expect(new Set(truth.map((k) => k.split(':')[0])).size, 'Walk is referenced from files other than walk.go').toBeGreaterThan(1);
    const first = await front(source);
    ok(await first.call('export_cache', { dest_path: ARTIFACT })); // turns the cache on for this home
    ok(await first.call('find_references', { file_path: WALK, ...at, include_declaration: true, limit: 100_000 }));
    const exported = ok(await first.call('export_cache', { dest_path: ARTIFACT }));
    expect(exported['current'], JSON.stringify(exported)).toBeGreaterThanOrEqual(1);

    const second = await front(target);
    const imported = ok(await second.call('import_cache', { src_path: join(source, ARTIFACT) }));
    expect(imported['current'], JSON.stringify(imported)).toBeGreaterThanOrEqual(1);
    const served = await references(second);
    expect(served.fromCache, 'the imported answer is served').toBe(true);
    judge({ tool: 'import_cache (served answer)', corpus: 'go-std', case: 'ast.Walk references after import', ...compareSets(served.keys, truth, served.complete) });
  });

  // Lines inserted on top of a caller's file move its references; lines appended to walk.go move
  // none (the question's position stays the same, so only the workspace's state tells it apart).
  it.each([
    { edited: 'another file with callers', pick: (files: string[]) => files.find((f) => f !== WALK)!, sed: ['-e', '1i // field: line one inserted by sed', '-e', '1i // field: line two'], moves: 2 },
    { edited: 'the declaring file', pick: () => WALK, sed: ['-e', '$a // field: line appended by sed'], moves: 0 },
  ])('sed on $edited: the cached answer is not served, the answer has the edit; put back, it is right again', async ({ pick, sed, moves }) => {
    const second = fronts[1]!;
    const file = pick([...new Set(truth.map((k) => k.split(':')[0]!))].sort());
    const path = join(target, file);
    const original = readFileSync(path, 'utf8');
    try {
      execFileSync('sed', ['-i', ...sed, file], { cwd: target });
      const after = await references(second);
      expect(after.fromCache, `an answer cached before ${file} changed was served`).toBe(false);
      judge({ tool: 'import_cache (after an outside edit)', corpus: 'go-std', case: `ast.Walk references, sed on ${file}`, ...compareSets(after.keys, shifted(truth, file, moves), after.complete) });
    } finally {
      writeFileSync(path, original);
    }
    const back = await references(second);
    judge({ tool: 'import_cache (after an outside edit)', corpus: 'go-std', case: `ast.Walk references, ${file} put back`, ...compareSets(back.keys, truth, back.complete) });
  });
});
