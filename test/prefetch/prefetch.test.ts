// Speculative prefetch against real pyright and typescript-language-server: a short agent trace
// with prefetch on is served from speculations (the stats prove it) and returns exactly what the
// same trace returns with prefetch off; an edit through apply_edit, or one written on disk by
// someone else, between the speculation and the call makes the call a miss with a fresh answer.
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { speculationStats as stats, think } from '../helpers/speculation.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { ServerRegistry } from '@agent-lsp/lsp';
import { FIXTURES } from '../helpers/paths.js';

interface Case {
  language: string;
  fixture: string;
  /** The file the agent starts from, and where in it the agent asks for a definition. */
  from: string;
  pattern: string;
  /** The file the definition is in. */
  target: string;
  /** The definition's line, and two edits of it that a hover shows. */
  line: string;
  editedLine: string;
  outsideLine: string;
  newParam: string;
  outsideParam: string;
}

const CASES: Case[] = [
  {
    language: 'python',
    fixture: 'python-basic',
    from: 'app/routes.py',
    pattern: 'total += @@distance(a, b)',
    target: 'app/geometry.py',
    line: 'def distance(a: Point, b: Point) -> float:',
    editedLine: 'def distance(a: Point, b: Point, scale: float = 1.0) -> float:',
    outsideLine: 'def distance(a: Point, b: Point, scale: float = 1.0, offset: float = 0.0) -> float:',
    newParam: 'scale',
    outsideParam: 'offset',
  },
  {
    language: 'typescript',
    fixture: 'ts-basic',
    from: 'src/main.ts',
    pattern: '${@@totalArea(shapes)}',
    target: 'src/shapes.ts',
    line: 'export function totalArea(shapes: Shape[]): number {',
    editedLine: 'export function totalArea(shapes: Shape[], scale = 1): number {',
    outsideLine: 'export function totalArea(shapes: Shape[], scale = 1, offset = 0): number {',
    newParam: 'scale',
    outsideParam: 'offset',
  },
];

function copyFixture(name: string): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `agent-lsp-prefetch-${name}-`)));
  cpSync(join(FIXTURES, name), root, { recursive: true });
  return root;
}

interface Front {
  agent: AgentLspClient;
  root: string;
  auditLog: string;
}

async function front(c: Case, prefetch: 'on' | 'off'): Promise<Front> {
  const root = copyFixture(c.fixture);
  const auditLog = join(mkdtempSync(join(tmpdir(), 'agent-lsp-prefetch-audit-')), 'audit.jsonl');
  const agent = await startAgentLsp({ args: ['--prefetch', prefetch, '--audit-log', auditLog] });
  ok(await agent.call('start_lsp', { root_dir: root, language_id: c.language }));
  return { agent, root, auditLog };
}

/** Each step's structured answer, as the agent got it. */
async function step(f: Front, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const data = ok(await f.agent.call(name, args));
  await think(f.agent);
  return data;
}

describe.each(CASES)('speculative prefetch on $language', (c) => {
  let on: Front;
  let off: Front;

  beforeAll(async () => {
    [on, off] = await Promise.all([front(c, 'on'), front(c, 'off')]);
  });
  afterAll(async () => {
    await Promise.all([on.agent.close(), off.agent.close()]);
    rmSync(on.root, { recursive: true, force: true });
    rmSync(off.root, { recursive: true, force: true });
    for (const f of [on, off]) rmSync(join(f.auditLog, '..'), { recursive: true, force: true });
  });

  /** The same calls on both fronts; every answer must be the same. */
  async function both(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const [a, b] = [await step(on, name, args), await step(off, name, args)];
    expect(a, `${name} ${JSON.stringify(args)}`).toEqual(b);
    return a;
  }

  let target: { file: string; line: number; column: number };

  it('serves a short exploration trace from speculations, with answers identical to prefetch off', async () => {
    const before = await stats(on.agent);
    expect(before).toMatchObject({ enabled: true, hits: 0, misses: 0 });
    expect(await stats(off.agent)).toMatchObject({ enabled: false, launched: 0 });

    await both('list_symbols', { file_path: c.target });
    const def = await both('go_to_definition', { file_path: c.from, position_pattern: c.pattern });
    const loc = (def['locations'] as { file: string; line: number; column: number }[])[0]!;
    expect(loc.file).toBe(c.target);
    target = { file: loc.file, line: loc.line, column: loc.column };

    const afterDefinition = await stats(on.agent);
    expect(afterDefinition.rules['definition→hover']?.launched).toBeGreaterThanOrEqual(1);

    const hover = await both('inspect_symbol', { file_path: target.file, line: target.line, column: target.column });
    expect(hover['contents']).toMatch(/\bshapes|\bb: Point/);
    await both('find_references', { file_path: target.file, line: target.line, column: target.column });
    await both('list_symbols', { file_path: c.target });

    const s = await stats(on.agent);
    // hover and references were speculated after the definition; the second outline repeats the first.
    // pyright's references are never speculated: it cannot be told to drop them (ServerDefinition.uncancellable).
    const refsSpeculated = !new ServerRegistry().forLanguage(c.language).uncancellable?.includes('textDocument/references');
    expect(s.rules['definition→hover']?.hits).toBe(1);
    if (refsSpeculated) expect(s.rules['definition→references']?.hits).toBe(1);
    else expect(s.rules['definition→references']?.launched ?? 0).toBe(0);
    expect(s.hits + s.partial_hits).toBeGreaterThanOrEqual(refsSpeculated ? 3 : 2);
    expect(s.hit_rate).toBeGreaterThan(0);
    const offStats = await stats(off.agent);
    expect(offStats).toMatchObject({ hits: 0, partial_hits: 0, launched: 0, predictions: 0 });

    // The audit log marks the calls answered from the cache, and only with prefetch on.
    const audit = (f: Front) => readFileSync(f.auditLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool: string; served_from_cache?: number });
    const served = audit(on).filter((e) => e.served_from_cache !== undefined);
    expect(served.map((e) => e.tool)).toEqual(expect.arrayContaining(['inspect_symbol', ...(refsSpeculated ? ['find_references'] : []), 'list_symbols']));
    expect(served.some((e) => e.tool === 'go_to_definition' && e.served_from_cache !== undefined)).toBe(false);
    expect(audit(off).some((e) => e.served_from_cache !== undefined)).toBe(false);
  });

  it('an edit through apply_edit between the speculation and the call makes the call a miss, and the answer fresh', async () => {
    // The definition again: its hover at the target is speculated (or already cached) for the next call.
    await both('go_to_definition', { file_path: c.from, position_pattern: c.pattern });
    const cachedHover = await stats(on.agent);
    for (const f of [on, off]) ok(await f.agent.call('apply_edit', { file_path: c.target, old_text: c.line, new_text: c.editedLine }));
    const hover = await both('inspect_symbol', { file_path: target.file, line: target.line, column: target.column });
    expect(hover['contents']).toContain(c.newParam);
    const s = await stats(on.agent);
    expect(s.hits + s.partial_hits).toBe(cachedHover.hits + cachedHover.partial_hits);
    expect(s.misses).toBeGreaterThan(cachedHover.misses);

    // A rollback brings back the old text: the answer cached for that text before the edit is not served either.
    for (const f of [on, off]) ok(await f.agent.call('undo_last', {}));
    const restored = await both('inspect_symbol', { file_path: target.file, line: target.line, column: target.column });
    expect(restored['contents']).not.toContain(c.newParam);
    const afterUndo = await stats(on.agent);
    expect(afterUndo.hits + afterUndo.partial_hits).toBe(s.hits + s.partial_hits);
  });

  it('an edit written on disk by someone else makes the call a miss, and the answer fresh', async () => {
    await both('inspect_symbol', { file_path: target.file, line: target.line, column: target.column });
    await both('go_to_definition', { file_path: c.from, position_pattern: c.pattern });
    const warm = await stats(on.agent);
    for (const f of [on, off]) {
      const path = join(f.root, c.target);
      const before = readFileSync(path, 'utf8');
      expect(before).toContain(c.line);
      writeFileSync(path, before.replace(c.line, c.outsideLine));
    }
    const hover = await both('inspect_symbol', { file_path: target.file, line: target.line, column: target.column });
    expect(hover['contents']).toContain(c.outsideParam);
    const refs = await both('find_references', { file_path: target.file, line: target.line, column: target.column });
    expect(refs['total']).toBeGreaterThanOrEqual(2);
    const s = await stats(on.agent);
    expect(s.hits + s.partial_hits).toBe(warm.hits + warm.partial_hits);
    expect(s.misses).toBeGreaterThanOrEqual(warm.misses + 2);
  });
});
