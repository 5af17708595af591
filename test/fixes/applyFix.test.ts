// suggest_fixes + apply_fix against real typescript-language-server and pyright, on private copies
// of the fixtures: the fixes are written through the transaction layer and undone with undo_last.
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

interface ActionOut {
  action_id: string;
  title: string;
  kind?: string;
  is_preferred?: boolean;
  fixes?: string[];
  edits?: { file: string; change: string; lines: string[] }[];
  command?: string;
}

const NEEDS_IMPORT = 'export const c = new Circle(3);\n';
const WITH_IMPORT = 'import { Circle } from "./shapes.js";\n\nexport const c = new Circle(3);\n';
const MESSY = "import { totalArea, Circle } from './shapes.js';\nimport { type Shape } from './shapes.js';\n\nexport const c: Shape = new Circle(1);\n";
const ORGANIZED = "import { Circle, totalArea, type Shape } from './shapes.js';\n\nexport const c: Shape = new Circle(1);\n";

describe('suggest_fixes and apply_fix with real servers', () => {
  let dir: string;
  let agent: AgentLspClient;
  const file = (rel: string) => join(dir, rel);
  const read = (rel: string) => readFileSync(file(rel), 'utf8');

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-fixes-')));
    cpSync(join(FIXTURES, 'ts-basic'), join(dir, 'ts'), { recursive: true });
    cpSync(join(FIXTURES, 'python-basic'), join(dir, 'py'), { recursive: true });
    writeFileSync(file('ts/src/messy.ts'), MESSY);
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: dir }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function addImportAction(): Promise<ActionOut> {
    const data = ok(await agent.call('suggest_fixes', { file_path: 'ts/src/needsImport.ts', start_line: 1, start_column: 22, end_line: 1, end_column: 28 }));
    const action = (data['actions'] as ActionOut[]).find((a) => a.title === 'Add import from "./shapes.js"');
    if (!action) throw new Error(`no add-import action: ${JSON.stringify(data['actions'])}`);
    return action;
  }

  it('"add missing import": offered with its diagnostic and a preview of the changed lines, applied by id, undone', async () => {
    const action = await addImportAction();
    expect(action).toMatchObject({ kind: 'quickfix', is_preferred: true, fixes: ["Cannot find name 'Circle'."] });
    expect(action.action_id).toMatch(/^fx\d+$/);
    expect(action.edits).toEqual([{ file: 'ts/src/needsImport.ts', change: 'modified', lines: ['+1 import { Circle } from "./shapes.js";', '+2 '] }]);
    // typescript-language-server's no-op applyCodeActionCommand is not offered as something to run.
    expect(action.command).toBeUndefined();
    expect(read('ts/src/needsImport.ts')).toBe(NEEDS_IMPORT);

    const preview = ok(await agent.call('apply_fix', { action_id: action.action_id, dry_run: true }));
    expect(preview).toMatchObject({ dry_run: true, applied: false, title: 'Add import from "./shapes.js"' });
    expect(read('ts/src/needsImport.ts')).toBe(NEEDS_IMPORT);

    const applied = ok(await agent.call('apply_fix', { action_id: action.action_id }));
    expect(applied).toMatchObject({ applied: true, files: [{ file: 'ts/src/needsImport.ts', change: 'modified' }] });
    expect(read('ts/src/needsImport.ts')).toBe(WITH_IMPORT);
    const diags = ok(await agent.call('get_diagnostics', { file_path: 'ts/src/needsImport.ts' }));
    expect(diags['diagnostics']).toEqual([]);

    const undone = ok(await agent.call('undo_last', {}));
    expect(undone['checkpoint_id']).toEqual(expect.any(String));
    expect(read('ts/src/needsImport.ts')).toBe(NEEDS_IMPORT);
  });

  it('"add all missing imports" (its edit comes only from codeAction/resolve): resolved for the preview, applied with its command in one transaction', async () => {
    const two = 'export const a = new Circle(1);\nexport const b = new Square(2);\n';
    writeFileSync(file('ts/src/two.ts'), two);
    const data = ok(await agent.call('suggest_fixes', { file_path: 'ts/src/two.ts', start_line: 1, start_column: 22, end_line: 1, end_column: 28 }));
    const all = (data['actions'] as ActionOut[]).find((a) => a.title === 'Add all missing imports');
    expect(all).toMatchObject({ kind: 'quickfix', command: '_typescript.applyFixAllCodeAction' });
    expect(all?.edits).toEqual([{ file: 'ts/src/two.ts', change: 'modified', lines: ['+1 import { Circle, Square } from "./shapes.js";', '+2 '] }]);
    const applied = ok(await agent.call('apply_fix', { action_id: all?.action_id }));
    expect(applied).toMatchObject({ applied: true, command: '_typescript.applyFixAllCodeAction' });
    expect(read('ts/src/two.ts')).toBe(`import { Circle, Square } from "./shapes.js";\n\n${two}`);
    ok(await agent.call('undo_last', {}));
    expect(read('ts/src/two.ts')).toBe(two);
  });

  it('"organize imports": offered when asked by kind, applied by id and by file_path + kind, each undone', async () => {
    const data = ok(await agent.call('suggest_fixes', { file_path: 'ts/src/messy.ts', start_line: 1, start_column: 1, end_line: 1, end_column: 1, only: 'source.organizeImports' }));
    const organize = (data['actions'] as ActionOut[]).find((a) => a.kind?.startsWith('source.organizeImports'));
    expect(organize?.edits?.[0]?.lines).toEqual([
      "-1 import { totalArea, Circle } from './shapes.js';",
      "-2 import { type Shape } from './shapes.js';",
      "+1 import { Circle, totalArea, type Shape } from './shapes.js';",
    ]);

    const byId = ok(await agent.call('apply_fix', { action_id: organize?.action_id }));
    expect(byId).toMatchObject({ applied: true, title: 'Organize Imports' });
    expect(read('ts/src/messy.ts')).toBe(ORGANIZED);
    ok(await agent.call('undo_last', {}));
    expect(read('ts/src/messy.ts')).toBe(MESSY);

    const applied = ok(await agent.call('apply_fix', { file_path: 'ts/src/messy.ts', kind: 'source.organizeImports' }));
    expect(applied).toMatchObject({ applied: true, title: 'Organize Imports', checkpoint_id: expect.any(String) });
    expect(read('ts/src/messy.ts')).toBe(ORGANIZED);
    ok(await agent.call('undo_last', {}));
    expect(read('ts/src/messy.ts')).toBe(MESSY);
  });

  it('applies a fix by its title', async () => {
    const applied = ok(await agent.call('apply_fix', { file_path: 'ts/src/needsImport.ts', start_line: 1, start_column: 22, end_line: 1, end_column: 28, title: 'Add import from "./shapes.js"' }));
    expect(applied).toMatchObject({ applied: true, title: 'Add import from "./shapes.js"' });
    expect(read('ts/src/needsImport.ts')).toBe(WITH_IMPORT);
    ok(await agent.call('undo_last', {}));
    expect(read('ts/src/needsImport.ts')).toBe(NEEDS_IMPORT);
  });

  it('a refactoring that is a command: the edit the server sends back (workspace/applyEdit) lands in the call\'s transaction, undone', async () => {
    const main = read('ts/src/main.ts');
    const range = { file_path: 'ts/src/main.ts', start_line: 10, start_column: 49, end_line: 10, end_column: 62 };
    const data = ok(await agent.call('suggest_fixes', range));
    const extract = (data['actions'] as ActionOut[]).find((a) => a.title === 'Extract to constant in enclosing scope');
    expect(extract).toMatchObject({ kind: 'refactor.extract.constant', command: '_typescript.applyRefactoring' });
    const applied = ok(await agent.call('apply_fix', { action_id: extract?.action_id }));
    expect(applied).toMatchObject({ applied: true, command: '_typescript.applyRefactoring', files: [{ file: 'ts/src/main.ts', change: 'modified' }] });
    // tsserver indents with its default 4 spaces (no formatting options are configured).
    expect(read('ts/src/main.ts')).toBe(
      main.replace('  return Math.max(...list.map((s) => s.area()), totalArea([]));', '    const newLocal = totalArea([]);\n  return Math.max(...list.map((s) => s.area()), newLocal);'),
    );
    ok(await agent.call('undo_last', {}));
    expect(read('ts/src/main.ts')).toBe(main);

    // "Move to a new file" would have the server create the file outside any transaction.
    const move = await agent.call('apply_fix', { ...range, title: 'Move to a new file' });
    expect(move.isError).toBe(true);
    expect(move.text).toMatch(/creates files straight on disk/);
    expect(read('ts/src/main.ts')).toBe(main);
  });

  it('refuses an action id from before an outside edit of its file, writing nothing', async () => {
    const action = await addImportAction();
    const edited = `// edited outside agent-lsp\n${NEEDS_IMPORT}`;
    writeFileSync(file('ts/src/needsImport.ts'), edited);
    const answer = await agent.call('apply_fix', { action_id: action.action_id });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/stale.*ts\/src\/needsImport\.ts changed.*Call suggest_fixes again/s);
    expect(read('ts/src/needsImport.ts')).toBe(edited);
    // A fresh id works on the new text.
    const fresh = ok(await agent.call('suggest_fixes', { file_path: 'ts/src/needsImport.ts', start_line: 2, start_column: 22, end_line: 2, end_column: 28 }));
    const id = (fresh['actions'] as ActionOut[]).find((a) => a.title === 'Add import from "./shapes.js"')?.action_id;
    ok(await agent.call('apply_fix', { action_id: id }));
    expect(read('ts/src/needsImport.ts')).toContain('import { Circle } from "./shapes.js";');
    ok(await agent.call('undo_last', {}));
    writeFileSync(file('ts/src/needsImport.ts'), NEEDS_IMPORT);
  });

  it('bad input: unknown id, unknown title, range past the end, a path outside the roots — clear messages, nothing written', async () => {
    const before = read('ts/src/needsImport.ts');
    const unknown = await agent.call('apply_fix', { action_id: 'fx999999' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/Unknown action_id fx999999.*Call suggest_fixes again/s);

    const noTitle = await agent.call('apply_fix', { file_path: 'ts/src/needsImport.ts', title: 'Make it work' });
    expect(noTitle.isError).toBe(true);
    expect(noTitle.text).toMatch(/No code action titled "Make it work".*Offered: .*Add import from/s);

    const pastEnd = await agent.call('apply_fix', { file_path: 'ts/src/needsImport.ts', start_line: 40, start_column: 1, end_line: 41, end_column: 1, kind: 'quickfix' });
    expect(pastEnd.isError).toBe(true);
    expect(pastEnd.text).toMatch(/start 40:1 is past the end of the file/);
    const pastEndSuggest = await agent.call('suggest_fixes', { file_path: 'ts/src/needsImport.ts', start_line: 1, start_column: 1, end_line: 9, end_column: 1 });
    expect(pastEndSuggest.text).toMatch(/past the end of the file/);

    const outsideDir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-outside-')));
    try {
      writeFileSync(join(outsideDir, 'other.ts'), NEEDS_IMPORT);
      const outside = await agent.call('apply_fix', { file_path: join(outsideDir, 'other.ts'), kind: 'quickfix' });
      expect(outside.isError).toBe(true);
      expect(outside.text).toMatch(/outside the workspace/);
      expect(readFileSync(join(outsideDir, 'other.ts'), 'utf8')).toBe(NEEDS_IMPORT);
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
    const both = await agent.call('apply_fix', { action_id: 'fx1', title: 'x' });
    expect(both.isError).toBe(true);
    expect(read('ts/src/needsImport.ts')).toBe(before);
  });

  it('pyright offers no quick fix for its type errors (its code actions are only stub creation, which agent-lsp does not run)', async () => {
    const data = ok(await agent.call('suggest_fixes', { file_path: 'py/app/broken.py', start_line: 1, start_column: 1, end_line: 7, end_column: 1 }));
    expect((data['diagnostics'] as { severity: string }[]).some((d) => d.severity === 'error')).toBe(true);
    expect(data['actions']).toEqual([]);
    const answer = await agent.call('apply_fix', { file_path: 'py/app/broken.py', kind: 'quickfix' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/No code action of kind quickfix .*The server offered none there/s);
  });
});
