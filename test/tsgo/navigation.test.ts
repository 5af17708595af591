// The TypeScript reading tools against typescript-go (`serve --ts-server tsgo`): references,
// definitions, hover, symbols, diagnostics by pull and rename, on copies of the TS fixtures. One
// server for the whole file.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRoot } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { positionOf } from '../helpers/text.js';

interface Loc {
  file: string;
  line: number;
  column: number;
}

const locs = (data: Record<string, unknown>, key = 'locations') => (data[key] as Loc[]).map((l) => `${l.file}:${l.line}:${l.column}`).sort();

describe('TypeScript tools on typescript-go', () => {
  let agent: AgentLspClient;
  let root: string;
  const at = (rel: string, needle: string, lineHint?: number) => {
    const p = positionOf(join(root, rel), needle, lineHint);
    return `${rel}:${p.line}:${p.column}`;
  };

  beforeAll(async () => {
    // Two tsconfig projects side by side: find_symbol must search both.
    root = fixtureRoot('ts-basic', 'symbols-ts');
    agent = await startAgentLsp({ args: ['--ts-server', 'tsgo'] });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
  });
  afterAll(async () => {
    await agent?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('is served by typescript-go, not typescript-language-server', async () => {
    const caps = ok(await agent.call('get_server_capabilities', { language_id: 'typescript' }));
    expect(caps['server']).toMatch(/typescript-go/);
    expect(JSON.stringify(caps)).not.toMatch(/typescript-language-server/);
  });

  it('finds every reference of a function across files, declaration and imports included', async () => {
    const data = ok(await agent.call('find_references', { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'export function @@totalArea' }));
    expect(data).toMatchObject({ ready: true, complete: true, total: 6 });
    expect(locs(data)).toEqual(
      [
        at('ts-basic/src/shapes.ts', 'totalArea'),
        at('ts-basic/src/main.ts', 'totalArea', 1),
        at('ts-basic/src/main.ts', 'totalArea(shapes)'),
        at('ts-basic/src/main.ts', 'totalArea([])'),
        at('ts-basic/src/broken.ts', 'totalArea', 1),
        at('ts-basic/src/broken.ts', 'totalArea([])'),
      ].sort(),
    );
  });

  it('goes to definitions, implementations and type definitions', async () => {
    const def = ok(await agent.call('go_to_definition', { file_path: 'ts-basic/src/main.ts', position_pattern: '${@@totalArea(shapes)}' }));
    expect(locs(def)).toEqual([at('ts-basic/src/shapes.ts', 'totalArea')]);
    const impl = ok(await agent.call('go_to_implementation', { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'interface @@Shape' }));
    // The two classes; typescript-go also lists the array literal typed Shape[] in main.ts.
    expect(locs(impl).filter((l) => l.startsWith('ts-basic/src/shapes.ts'))).toEqual([at('ts-basic/src/shapes.ts', 'Circle'), at('ts-basic/src/shapes.ts', 'Square')].sort());
    const type = ok(await agent.call('go_to_type_definition', { file_path: 'ts-basic/src/main.ts', position_pattern: 'totalArea(@@shapes)' }));
    expect(locs(type)).toContain(at('ts-basic/src/shapes.ts', 'Shape'));
  });

  it('hovers with the signature', async () => {
    const hover = ok(await agent.call('inspect_symbol', { file_path: 'ts-basic/src/main.ts', position_pattern: 'export function @@report' }));
    expect(hover['contents']).toContain('function report(): string');
  });

  it('lists a file\'s symbols with their nesting', async () => {
    const outline = ok(await agent.call('list_symbols', { file_path: 'ts-basic/src/shapes.ts' }));
    const symbols = outline['symbols'] as { name: string; kind: string; depth: number; line: number; container?: string }[];
    expect(symbols).toContainEqual(expect.objectContaining({ name: 'Circle', kind: 'class', depth: 0, line: 5 }));
    expect(symbols).toContainEqual(expect.objectContaining({ name: 'area', kind: 'method', depth: 1, container: 'Circle' }));
    expect(symbols).toContainEqual(expect.objectContaining({ name: 'totalArea', kind: 'function', depth: 0, line: 19 }));
  });

  it('find_symbol searches every tsconfig project, not only the one opened first', async () => {
    const classes = ok(await agent.call('find_symbol', { query: 'Circle', kind: 'class', language_id: 'typescript' }));
    expect(classes['complete']).toBe(true);
    const found = (classes['symbols'] as { name: string; kind: string; file: string }[]).map((c) => `${c.name} ${c.kind} ${c.file}`).sort();
    expect(found).toEqual(['Circle class symbols-ts/src/shapes.ts', 'Circle class ts-basic/src/shapes.ts']);
  });

  it('reports diagnostics by pull (textDocument/diagnostic) for the disk text', async () => {
    const broken = ok(await agent.call('get_diagnostics', { file_path: 'ts-basic/src/broken.ts' }));
    expect(broken).toMatchObject({ errors: 2, files: [{ file: 'ts-basic/src/broken.ts', settled_by: 'pull', errors: 2 }] });
    const diags = broken['diagnostics'] as { line: number; severity: string; code: string | number; message: string }[];
    expect(diags.map((d) => [d.line, d.severity, String(d.code)])).toEqual([
      [3, 'error', '2322'],
      [5, 'error', '2322'],
    ]);
    const clean = ok(await agent.call('get_diagnostics', { file_path: 'ts-basic/src/shapes.ts' }));
    expect(clean).toMatchObject({ errors: 0 });
  });

  it('a file created and then deleted outside agent-lsp, once reported (did_change_watched_files), is in and then out of the answer', async () => {
    // The watcher reports such files too, but only after a batch delay; the tool makes it certain.
    const refs = async () => ok(await agent.call('find_references', { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'export function @@totalArea' }));
    const extra = join(root, 'ts-basic/src/extra.ts');
    writeFileSync(extra, "import { totalArea } from './shapes.js';\nexport const z = totalArea([]);\n");
    ok(await agent.call('did_change_watched_files', { changes: [{ file_path: extra, type: 'created' }] }));
    const withExtra = await refs();
    expect(withExtra).toMatchObject({ complete: true, total: 8 });
    expect(locs(withExtra)).toContain('ts-basic/src/extra.ts:2:18');
    rmSync(extra);
    ok(await agent.call('did_change_watched_files', { changes: [{ file_path: extra, type: 'deleted' }] }));
    expect(await refs()).toMatchObject({ complete: true, total: 6 });
  });

  it('renames across files as one transaction, previewed first, and undoes it', async () => {
    const main = join(root, 'ts-basic/src/main.ts');
    const before = readFileSync(main, 'utf8');
    const preview = ok(await agent.call('rename_symbol', { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'export function @@totalArea', new_name: 'sumOfAreas', dry_run: true }));
    expect(preview['total']).toBe(6);
    expect(readFileSync(main, 'utf8')).toBe(before);
    const done = ok(await agent.call('rename_symbol', { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'export function @@totalArea', new_name: 'sumOfAreas' }));
    expect((done['files'] as { file: string }[]).map((f) => f.file).sort()).toEqual(['ts-basic/src/broken.ts', 'ts-basic/src/main.ts', 'ts-basic/src/shapes.ts']);
    expect(readFileSync(main, 'utf8')).toBe(before.replaceAll('totalArea', 'sumOfAreas'));
    // The server sees the renamed files: references of the new name are all found.
    const refs = ok(await agent.call('find_references', { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'export function @@sumOfAreas' }));
    expect(refs['total']).toBe(6);
    ok(await agent.call('undo_last', {}));
    expect(readFileSync(main, 'utf8')).toBe(before);
  });
});
