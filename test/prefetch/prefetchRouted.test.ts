// The tools routed through the prefetch cache besides the navigation ones, against real pyright
// (which answers pull diagnostics; typescript-language-server does not, so its diagnostics never
// go through the cache): get_diagnostics → suggest_fixes served from the speculated listing, an
// edit through apply_edit → the diagnostics of the edited file and of an open importer pulled
// before the agent asks, and explore_symbol / find_callers / type_hierarchy / get_tests_for_file /
// get_diagnostics group_by symbol answered from the cache when asked again, a diagnostic's hover and
// the outline around a hover served from the rules — always identical to
// prefetch off, and fresh (a miss) after a file is written on disk by someone else.
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speculationStats as stats, think } from '../helpers/speculation.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

interface Front {
  agent: AgentLspClient;
  root: string;
}

async function front(prefetch: 'on' | 'off'): Promise<Front> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-prefetch-routed-')));
  cpSync(join(FIXTURES, 'python-basic'), root, { recursive: true });
  const agent = await startAgentLsp({ args: ['--prefetch', prefetch] });
  ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  return { agent, root };
}

const GEOMETRY = 'app/geometry.py';
const ROUTES = 'app/routes.py';
const BROKEN = 'app/broken.py';
const DISTANCE = 'def distance(a: Point, b: Point) -> float:';

describe('prefetch of diagnostics, code actions and composite tools (pyright)', () => {
  let on: Front;
  let off: Front;

  beforeAll(async () => {
    [on, off] = await Promise.all([front('on'), front('off')]);
  });
  afterAll(async () => {
    await Promise.all([on.agent.close(), off.agent.close()]);
    rmSync(on.root, { recursive: true, force: true });
    rmSync(off.root, { recursive: true, force: true });
  });

  /** One call on both fronts (identical answers); how the "on" front's cache served it. */
  async function both(name: string, args: Record<string, unknown>) {
    const before = await stats(on.agent);
    const a = ok(await on.agent.call(name, args));
    const after = await stats(on.agent);
    const b = ok(await off.agent.call(name, args));
    expect(a, `${name} ${JSON.stringify(args)}`).toEqual(b);
    await think(on.agent);
    return { data: a, hits: after.hits + after.partial_hits - before.hits - before.partial_hits, misses: after.misses - before.misses };
  }

  function writeOutside(file: string, from: string, to: string): void {
    for (const f of [on, off]) {
      const path = join(f.root, file);
      const text = readFileSync(path, 'utf8');
      expect(text).toContain(from);
      writeFileSync(path, text.replace(from, to));
    }
  }

  it('get_diagnostics → suggest_fixes at its first diagnostic is served from the speculated listing; asked again, get_diagnostics is a hit', async () => {
    const diags = await both('get_diagnostics', { file_path: BROKEN });
    expect(diags.misses).toBeGreaterThan(0);
    const first = (diags.data['diagnostics'] as { line: number; column: number; end_line: number; end_column: number; message: string }[])[0]!;
    expect(first.message).toMatch(/str|int/);
    const fixes = await both('suggest_fixes', { file_path: BROKEN, start_line: first.line, start_column: first.column, end_line: first.end_line, end_column: first.end_column });
    // The pull (asked by get_diagnostics) and the code action listing (speculated) both come from the cache.
    expect(fixes).toMatchObject({ misses: 0 });
    expect(fixes.hits).toBe(2);
    expect((await stats(on.agent)).rules['diagnostics→code actions']?.hits).toBeGreaterThanOrEqual(1);
    expect(await both('get_diagnostics', { file_path: BROKEN })).toMatchObject({ hits: 1, misses: 0 });
  });

  // Early in the file: later tests' hovers leave the outline rule a poor record of its own (it then launches only a probe in five).
  it('where the agent stands: a hover brings the outline of its file, the outline the hover of the symbol around it; a diagnostic its hover', async () => {
    const first = await both('get_diagnostics', { file_path: BROKEN });
    const d = (first.data['diagnostics'] as { line: number; column: number }[])[0]!;
    expect(await both('inspect_symbol', { file_path: BROKEN, line: d.line, column: d.column })).toMatchObject({ misses: 0, hits: 1 });
    expect((await stats(on.agent)).rules['diagnostics→hover']?.hits).toBeGreaterThanOrEqual(1);
    const before = await stats(on.agent);
    await both('inspect_symbol', { file_path: BROKEN, position_pattern: 'return @@distance(' });
    const outline = await both('list_symbols', { file_path: BROKEN });
    expect(outline).toMatchObject({ misses: 0, hits: 1 });
    const bad = (outline.data['symbols'] as { name: string; line: number; column: number }[]).find((x) => x.name === 'bad')!;
    expect(await both('inspect_symbol', { file_path: BROKEN, line: bad.line, column: bad.column })).toMatchObject({ misses: 0, hits: 1 });
    const s = await stats(on.agent);
    expect(s.rules['position→symbols']?.hits).toBeGreaterThan(before.rules['position→symbols']?.hits ?? 0);
    expect(s.rules['symbols→enclosing hover']?.hits).toBeGreaterThan(before.rules['symbols→enclosing hover']?.hits ?? 0);
  });

  it('a file written on disk by someone else: get_diagnostics and suggest_fixes miss and answer for the new text', async () => {
    writeOutside(BROKEN, 'count: int = "three"', 'count: int = 3');
    const diags = await both('get_diagnostics', { file_path: BROKEN });
    expect(diags.misses).toBeGreaterThan(0);
    expect(JSON.stringify(diags.data['diagnostics'])).not.toMatch(/three/);
    const fixes = await both('suggest_fixes', { file_path: BROKEN, start_line: 3, start_column: 1, end_line: 3, end_column: 6 });
    expect(fixes.data['diagnostics']).toEqual([]);
  });

  it('an edit through apply_edit: the diagnostics of the edited file and of an open file importing it are pulled before the agent asks', async () => {
    await both('get_diagnostics', { file_path: ROUTES });
    await both('get_diagnostics', { file_path: GEOMETRY });
    const before = await stats(on.agent);
    for (const f of [on, off]) ok(await f.agent.call('apply_edit', { file_path: GEOMETRY, old_text: DISTANCE, new_text: 'def distance(a: Point, b: Point, scale: float) -> float:' }));
    await think(on.agent);
    const edited = await both('get_diagnostics', { file_path: GEOMETRY });
    expect(edited).toMatchObject({ hits: 1, misses: 0 });
    const importer = await both('get_diagnostics', { file_path: ROUTES });
    expect(importer).toMatchObject({ hits: 1, misses: 0 });
    // routes.py calls distance(a, b): now an error, seen in the answer served from the cache.
    expect(JSON.stringify(importer.data['diagnostics'])).toMatch(/scale/);
    const s = await stats(on.agent);
    expect(s.rules['edit→diagnostics']?.hits).toBe((before.rules['edit→diagnostics']?.hits ?? 0) + 1);
    expect(s.rules['edit→importer diagnostics']?.hits).toBe((before.rules['edit→importer diagnostics']?.hits ?? 0) + 1);
    for (const f of [on, off]) ok(await f.agent.call('undo_last', {}));
    await think(on.agent);
    const undone = await both('get_diagnostics', { file_path: ROUTES });
    expect(JSON.stringify(undone.data['diagnostics'])).not.toMatch(/scale/);
  });

  const ROUTED: [string, Record<string, unknown>][] = [
    ['explore_symbol', { file_path: GEOMETRY, position_pattern: 'def @@distance(' }],
    ['find_callers', { file_path: GEOMETRY, position_pattern: 'def @@distance(' }],
    ['type_hierarchy', { file_path: GEOMETRY, position_pattern: 'class @@Point' }],
    ['get_tests_for_file', { file_path: GEOMETRY }],
    ['get_diagnostics', { file_path: ROUTES, group_by: 'symbol' }],
  ];

  it.each(ROUTED)('%s asked again is answered from the cache, identical; after an outside edit it misses and answers fresh', async (tool, args) => {
    await both(tool, args);
    const again = await both(tool, args);
    expect(again.misses).toBe(0);
    expect(again.hits).toBeGreaterThan(0);
    writeOutside(GEOMETRY, DISTANCE, 'def distance(a: Point, b: Point, offset: float = 0.0) -> float:');
    try {
      const fresh = await both(tool, args);
      expect(fresh.misses).toBeGreaterThan(0);
      if (tool === 'explore_symbol') expect(JSON.stringify(fresh.data)).toContain('offset');
    } finally {
      writeOutside(GEOMETRY, 'def distance(a: Point, b: Point, offset: float = 0.0) -> float:', DISTANCE);
    }
  });
});
