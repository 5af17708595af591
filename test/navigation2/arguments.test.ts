// The original agent-lsp's arguments ours lacked: get_diagnostics group_by, list_symbols format,
// find_symbol detail_level, line_scope_start/line_scope_end, rename_symbol exclude_globs (pyright).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { at, copyFixture } from './workspaceCopy.js';

describe('new arguments on pyright', () => {
  let agent: AgentLspClient;
  let ws: { root: string; remove(): void };
  const read = (file: string) => readFileSync(join(ws.root, file), 'utf8');

  beforeAll(async () => {
    ws = copyFixture('python-basic');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: ws.root }));
  });
  afterAll(async () => {
    await agent.close();
    ws.remove();
  });

  it('get_diagnostics group_by symbol puts each diagnostic under its enclosing function', async () => {
    const data = ok(await agent.call('get_diagnostics', { file_path: 'app/broken.py', group_by: 'symbol' }));
    expect(data['groups']).toEqual([
      { group: 'app/broken.py: (outside any symbol)', count: 1, errors: 1, warnings: 0 },
      { group: 'app/broken.py: bad', count: 1, errors: 1, warnings: 0 },
    ]);
    const diags = data['diagnostics'] as { line: number; group: string }[];
    expect(diags.map((d) => `${d.line} ${d.group}`)).toEqual(['3 app/broken.py: (outside any symbol)', '7 app/broken.py: bad']);
  });

  it('get_diagnostics group_by severity and file count the groups', async () => {
    expect(ok(await agent.call('get_diagnostics', { file_path: 'app/broken.py', group_by: 'severity' }))['groups']).toEqual([{ group: 'error', count: 2, errors: 2, warnings: 0 }]);
    const byFile = await agent.call('get_diagnostics', { file_path: 'app/broken.py', group_by: 'file' });
    expect(byFile.data['groups']).toEqual([{ group: 'app/broken.py', count: 2, errors: 2, warnings: 0 }]);
    expect(byFile.text).toContain('## app/broken.py (2)');
  });

  it('list_symbols format flat gives dotted paths, one line each; tree (the default) indents', async () => {
    const flat = await agent.call('list_symbols', { file_path: 'app/geometry.py', format: 'flat' });
    expect((ok(flat)['symbols'] as { path: string }[]).map((s) => s.path)).toEqual(['Point', 'Point.x', 'Point.y', 'distance', 'café', '名前', 'origin']);
    expect(flat.text).toContain('\nvariable Point.x (8:5-8:6)\n');
    const tree = await agent.call('list_symbols', { file_path: 'app/geometry.py' });
    expect(tree.text).toContain('\n  variable x (8:5-8:6)\n');
    expect((ok(tree)['symbols'] as { path?: string }[]).every((s) => s.path === undefined)).toBe(true);
  });

  it('find_symbol detail_level hover adds the signature; basic does not', async () => {
    const hover = ok(await agent.call('find_symbol', { query: 'distance', detail_level: 'hover' }));
    const [first] = hover['symbols'] as { name: string; hover?: string }[];
    expect(first?.name).toBe('distance');
    expect(first?.hover).toMatch(/def distance\(\s*a: Point,\s*b: Point\s*\) -> float/);
    const basic = ok(await agent.call('find_symbol', { query: 'distance', detail_level: 'basic' }));
    expect((basic['symbols'] as { hover?: string }[])[0]?.hover).toBeUndefined();
  });

  it('line_scope_start/line_scope_end pick one of several matches of position_pattern', async () => {
    const routes = read('app/routes.py');
    const ambiguous = await agent.call('go_to_definition', { file_path: 'app/routes.py', position_pattern: '@@distance(' });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toContain('occurs 2 times');
    expect(ambiguous.text).toContain('line_scope_start/line_scope_end');
    const second = at(routes, 12, 'distance(');
    const scoped = ok(await agent.call('inspect_symbol', { file_path: 'app/routes.py', position_pattern: '@@distance(', line_scope_start: 10, line_scope_end: 12 }));
    expect(scoped['range']).toEqual({ line: 12, column: second.column, end_line: 12, end_column: second.column + 8 });
    const defs = ok(await agent.call('go_to_definition', { file_path: 'app/routes.py', position_pattern: '@@distance(', line_scope_start: 5, line_scope_end: 7 }));
    expect(defs['locations']).toEqual([{ file: 'app/geometry.py', line: 12, column: 5, end_line: 12, end_column: 13 }]);
    const outside = await agent.call('go_to_definition', { file_path: 'app/routes.py', position_pattern: '@@distance(', line_scope_start: 1, line_scope_end: 2 });
    expect(outside.text).toContain('does not occur in app/routes.py within lines 1-2');
    const alone = await agent.call('go_to_definition', { file_path: 'app/routes.py', line: 12, column: second.column, line_scope_start: 1 });
    expect(alone.isError).toBe(true);
    expect(alone.text).toContain('narrow position_pattern');
  });

  it('rename_symbol exclude_globs leaves matching files unchanged and names them; all excluded is refused', async () => {
    const before = { routes: read('app/routes.py'), geometry: read('app/geometry.py'), broken: read('app/broken.py') };
    const refused = await agent.call('rename_symbol', { file_path: 'app/geometry.py', position_pattern: 'def @@distance', new_name: 'dist', exclude_globs: ['app/**'] });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('Every file the rename would edit matches exclude_globs');
    expect(read('app/geometry.py')).toBe(before.geometry);

    const data = ok(await agent.call('rename_symbol', { file_path: 'app/geometry.py', position_pattern: 'def @@distance', new_name: 'dist', exclude_globs: ['routes.py'] }));
    expect(data['excluded_files']).toEqual(['app/routes.py']);
    expect(data['possibly_missed']).toBeUndefined();
    expect(read('app/routes.py')).toBe(before.routes);
    expect(read('app/geometry.py')).toBe(before.geometry.replace('def distance(', 'def dist('));
    expect(read('app/broken.py')).toBe(before.broken.replaceAll('distance', 'dist'));
  });
});

describe('find_symbol detail_level hover on typescript-language-server', () => {
  it('hovers the name, not the start of the declaration its workspace symbol covers (export …)', async () => {
    const ws = copyFixture('ts-basic');
    const agent = await startAgentLsp();
    try {
      ok(await agent.call('start_lsp', { root_dir: ws.root }));
      const data = ok(await agent.call('find_symbol', { query: 'totalArea', detail_level: 'hover' }));
      expect((data['symbols'] as { hover?: string }[])[0]?.hover).toContain('function totalArea(shapes: Shape[]): number');
    } finally {
      await agent.close();
      ws.remove();
    }
  });
});
