import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';
import { positionOf } from '../helpers/text.js';

const PY = join(FIXTURES, 'python-basic');
const TS = join(FIXTURES, 'ts-basic');

interface Loc {
  file: string;
  line: number;
  column: number;
}

function locs(data: Record<string, unknown>): Loc[] {
  return data['locations'] as Loc[];
}

describe('the MCP tools against real pyright and typescript-language-server', () => {
  let agent: AgentLspClient;

  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: FIXTURES }));
  });
  afterAll(async () => {
    await agent.close();
  });

  it('lists every foundation tool with an output schema and true annotations', async () => {
    const { tools } = await agent.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of [
      'start_lsp', 'restart_lsp_server', 'open_document', 'close_document', 'get_diagnostics', 'go_to_definition',
      'go_to_type_definition', 'go_to_implementation', 'go_to_declaration', 'find_references', 'inspect_symbol',
      'list_symbols', 'find_symbol', 'get_completions', 'get_signature_help', 'suggest_fixes',
      'get_server_capabilities', 'detect_lsp_servers', 'list_workspace_folders', 'add_workspace_folder', 'remove_workspace_folder',
    ]) {
      const tool = byName.get(name);
      expect(tool, name).toBeDefined();
      expect(tool?.outputSchema, name).toBeDefined();
    }
    expect(byName.get('find_references')?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    // readOnlyHint false is MCP's default and left out of the listing (packages/server/src/listedAnnotations.ts).
    expect(byName.get('start_lsp')?.annotations).toEqual({ destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });

  it('finds every Python reference across files, root-relative and 1-based', async () => {
    const data = ok(await agent.call('find_references', { file_path: 'python-basic/app/geometry.py', position_pattern: 'def @@distance(' }));
    expect(data).toMatchObject({ ready: true, total: 6, complete: true, files: 3 });
    const routes = join(PY, 'app', 'routes.py');
    expect(locs(data)).toContainEqual(expect.objectContaining({ file: 'python-basic/app/routes.py', ...positionOf(routes, 'distance(a, b)') }));
    expect(locs(data)).toContainEqual(expect.objectContaining({ file: 'python-basic/app/geometry.py', line: 12, column: 5 }));
  });

  it('counts columns in characters after accents, CJK and emoji on the same line', async () => {
    const geometry = join(PY, 'app', 'geometry.py');
    const data = ok(await agent.call('go_to_definition', { file_path: 'python-basic/app/routes.py', position_pattern: 'distance(@@origin, p)' }));
    expect(locs(data)).toEqual([expect.objectContaining({ file: 'python-basic/app/geometry.py', ...positionOf(geometry, 'origin =') })]);

    const main = join(TS, 'src', 'main.ts');
    const refs = ok(await agent.call('find_references', { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'export function @@totalArea' }));
    expect(refs).toMatchObject({ total: 6, complete: true, files: 3 });
    expect(locs(refs)).toContainEqual(expect.objectContaining({ file: 'ts-basic/src/main.ts', ...positionOf(main, 'totalArea(shapes)') }));
    // line/column input after non-ASCII text resolves to the same symbol
    const at = positionOf(main, 'totalArea(shapes)');
    const def = ok(await agent.call('go_to_definition', { file_path: join(TS, 'src', 'main.ts'), line: at.line, column: at.column + 2 }));
    expect(locs(def)).toEqual([expect.objectContaining({ file: 'ts-basic/src/shapes.ts', line: 19, column: 17 })]);
  });

  it('finds implementations and type definitions in TypeScript', async () => {
    const impl = ok(await agent.call('go_to_implementation', { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'interface @@Shape' }));
    expect(locs(impl).filter((l) => l.file === 'ts-basic/src/shapes.ts').map((l) => l.line)).toEqual([5, 12]);
    const type = ok(await agent.call('go_to_type_definition', { file_path: 'ts-basic/src/main.ts', position_pattern: 'totalArea(@@shapes)' }));
    expect(locs(type)).toContainEqual(expect.objectContaining({ file: 'ts-basic/src/shapes.ts', line: 1, column: 18 }));
  });

  it('reports settled diagnostics with how they settled', async () => {
    const py = ok(await agent.call('get_diagnostics', { file_path: 'python-basic/app/broken.py' }));
    expect(py).toMatchObject({ errors: 2, files: [{ file: 'python-basic/app/broken.py', settled_by: 'pull', errors: 2 }] });
    const ts = ok(await agent.call('get_diagnostics', { file_path: 'ts-basic/src/broken.ts' }));
    expect(ts).toMatchObject({ errors: 2, files: [{ file: 'ts-basic/src/broken.ts', settled_by: 'exact', errors: 2 }] });
    const diags = ts['diagnostics'] as { line: number; severity: string; code: number }[];
    expect(diags.map((d) => [d.line, d.severity, d.code])).toEqual([
      [3, 'error', 2322],
      [5, 'error', 2322],
    ]);
    const clean = ok(await agent.call('get_diagnostics', { file_path: 'ts-basic/src/shapes.ts' }));
    expect(clean).toMatchObject({ total: 0, errors: 0 });
    const all = ok(await agent.call('get_diagnostics', {}));
    expect((all['files'] as { file: string }[]).map((f) => f.file)).toEqual(expect.arrayContaining(['python-basic/app/broken.py', 'ts-basic/src/broken.ts']));
  });

  it('inspects, lists and finds symbols', async () => {
    const hover = ok(await agent.call('inspect_symbol', { file_path: 'python-basic/app/routes.py', position_pattern: 'total += @@distance' }));
    expect((hover['contents'] as string).replace(/\s+/g, ' ')).toContain('def distance( a: Point, b: Point ) -> float');

    const outline = ok(await agent.call('list_symbols', { file_path: 'python-basic/app/geometry.py' }));
    const symbols = outline['symbols'] as { name: string; kind: string; depth: number; container?: string }[];
    expect(symbols).toContainEqual(expect.objectContaining({ name: 'Point', kind: 'class', depth: 0 }));
    expect(symbols).toContainEqual(expect.objectContaining({ name: 'x', depth: 1, container: 'Point' }));
    expect(symbols).toContainEqual(expect.objectContaining({ name: 'distance', kind: 'function', line: 12, column: 5 }));

    const found = ok(await agent.call('find_symbol', { query: 'distance', language_id: 'python' }));
    expect((found['symbols'] as { name: string; match: string; file: string }[])[0]).toMatchObject({ name: 'distance', match: 'exact', file: 'python-basic/app/geometry.py' });
    const classes = ok(await agent.call('find_symbol', { query: 'Circle', kind: 'class', language_id: 'typescript' }));
    // The fixtures are three tsconfig projects side by side; tsserver searches only loaded projects,
    // so find_symbol loads each: both declarations of Circle, not whichever project was open.
    const declaring = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.includes('node_modules') && /\bclass Circle\b/.test(readFileSync(join(FIXTURES, f), 'utf8')))
      .sort();
    expect(declaring).toEqual(['symbols-ts/src/shapes.ts', 'ts-basic/src/shapes.ts']);
    expect(classes['complete']).toBe(true);
    expect((classes['symbols'] as { name: string; kind: string; file: string }[]).map((c) => `${c.name} ${c.kind} ${c.file}`).sort()).toEqual(declaring.map((f) => `Circle class ${f}`));
    expect(classes['symbols']).toContainEqual(expect.objectContaining({ file: 'ts-basic/src/shapes.ts', line: 5 }));
  });

  it('completes members and shows the active parameter', async () => {
    const completions = ok(await agent.call('get_completions', { file_path: 'ts-basic/src/main.ts', position_pattern: 's.@@area()), totalArea' }));
    expect((completions['items'] as { label: string }[]).map((i) => i.label)).toContain('area');
    const sig = ok(await agent.call('get_signature_help', { file_path: 'python-basic/app/routes.py', position_pattern: 'distance(origin, @@p)' }));
    const signatures = sig['signatures'] as { label: string; active_parameter?: number }[];
    expect(signatures[0]?.label).toContain('a: Point, b: Point');
    expect(signatures[0]?.active_parameter).toBe(1);
  });

  it('suggests a fix with the edit it would make, without applying it', async () => {
    const fixes = ok(await agent.call('suggest_fixes', { file_path: 'ts-basic/src/needsImport.ts', start_line: 1, start_column: 22, end_line: 1, end_column: 28 }));
    const actions = fixes['actions'] as { title: string; edits?: { file: string }[] }[];
    const addImport = actions.find((a) => a.title.includes('./shapes.js'));
    expect(addImport?.edits).toEqual([{ file: 'ts-basic/src/needsImport.ts', change: 'modified', lines: ['+1 import { Circle } from "./shapes.js";', '+2 '] }]);
    expect((fixes['diagnostics'] as { code: number }[])[0]?.code).toBe(2304);
  });

  it('reports server capabilities, detected languages and workspace folders', async () => {
    const caps = ok(await agent.call('get_server_capabilities', { language_id: 'python' }));
    expect(caps['dynamic_registrations']).toContain('textDocument/diagnostic');
    const detected = ok(await agent.call('detect_lsp_servers', {}));
    const languages = detected['languages'] as { language: string; installed: boolean; files: number }[];
    // Every Python file of every fixture (the fixtures hold no virtualenv or cache to skip).
    const pythonFiles = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.py')).length;
    expect(pythonFiles).toBeGreaterThan(4);
    expect(languages.find((l) => l.language === 'python')).toMatchObject({ installed: true, files: pythonFiles });
    expect(ok(await agent.call('list_workspace_folders', {}))['folders']).toEqual([FIXTURES]);
    expect(ok(await agent.call('add_workspace_folder', { path: join(FIXTURES, '..') }))['folders']).toEqual([FIXTURES, join(FIXTURES, '..')]);
    expect(ok(await agent.call('remove_workspace_folder', { path: join(FIXTURES, '..') }))['folders']).toEqual([FIXTURES]);
  });

  it('opens and closes documents', async () => {
    const opened = ok(await agent.call('open_document', { file_path: 'python-basic/app/routes.py' }));
    expect(opened).toMatchObject({ file: 'python-basic/app/routes.py', language_id: 'python', lines: 13 });
    expect(ok(await agent.call('close_document', { file_path: 'python-basic/app/routes.py' }))).toMatchObject({ closed: true });
    expect(ok(await agent.call('close_document', { file_path: 'python-basic/app/routes.py' }))).toMatchObject({ closed: false });
  });

  it('a server without declarations answers go_to_declaration with its definition, and says so', async () => {
    const caps = ok(await agent.call('get_server_capabilities', { language_id: 'typescript' }));
    const hasDeclaration = (caps['supported_requests'] as string[]).includes('declarationProvider');
    const at = { file_path: 'ts-basic/src/main.ts', position_pattern: 'new @@Circle(1)' };
    const answer = ok(await agent.call('go_to_declaration', at));
    if (hasDeclaration) expect(answer['answered_by']).toBeUndefined();
    else expect(answer).toMatchObject({ answered_by: 'textDocument/definition', locations: ok(await agent.call('go_to_definition', at))['locations'] });
  });

  it('restarts a server: a new process that answers again', async () => {
    const before = ok(await agent.call('start_lsp', { root_dir: FIXTURES, language_id: 'python' }));
    const oldPid = (before['servers'] as { language: string; pid: number }[]).find((s) => s.language === 'python')?.pid;
    const after = ok(await agent.call('restart_lsp_server', { language_id: 'python' }));
    const newPid = (after['servers'] as { pid: number }[])[0]?.pid;
    expect(newPid).toBeGreaterThan(0);
    expect(newPid).not.toBe(oldPid);
    expect(ok(await agent.call('find_references', { file_path: 'python-basic/app/geometry.py', position_pattern: 'def @@distance(' }))['total']).toBe(6);
  });
});
