// Code actions on typescript-go (`serve --ts-server tsgo`): its quick fixes and organize imports are
// offered, previewed, applied and undone; what it lacks (refactorings, workspace/executeCommand and
// so typescript-language-server's commands) is refused with a message saying so, writing nothing.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRoot } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

interface ActionOut {
  action_id: string;
  title: string;
  kind?: string;
  fixes?: string[];
  edits?: { file: string; change: string; lines: string[] }[];
  command?: string;
}

const NEEDS_IMPORT = 'export const c = new Circle(3);\n';
const WITH_IMPORT = 'import { Circle } from "./shapes.js";\n\nexport const c = new Circle(3);\n';
const MESSY = "import { totalArea, Circle } from './shapes.js';\nimport { type Shape } from './shapes.js';\n\nexport const c: Shape = new Circle(1);\n";
// typescript-go's organize imports also drops the unused totalArea (tsserver's keeps it).
const ORGANIZED = "import { Circle, type Shape } from './shapes.js';\n\nexport const c: Shape = new Circle(1);\n";
const NO_REFACTORINGS = /^typescript-go offers no refactorings \(extract, inline, move, rewrite.*--ts-server tsls/;
const NO_COMMANDS = /typescript-go implements no workspace\/executeCommand, so typescript-language-server's commands \(_typescript\.\*, typescript\.tsserverRequest\) do not exist there; use apply_fix/;

describe('suggest_fixes, apply_fix and execute_command on typescript-go', () => {
  let agent: AgentLspClient;
  let root: string;
  const read = (rel: string) => readFileSync(join(root, 'ts-basic', rel), 'utf8');

  beforeAll(async () => {
    root = fixtureRoot('ts-basic');
    writeFileSync(join(root, 'ts-basic/src/messy.ts'), MESSY);
    agent = await startAgentLsp({ args: ['--ts-server', 'tsgo'] });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
  });
  afterAll(async () => {
    await agent?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('"add missing import": offered for its diagnostic with a preview, applied by id, undone; the answer says refactorings are missing', async () => {
    const data = ok(await agent.call('suggest_fixes', { file_path: 'ts-basic/src/needsImport.ts', start_line: 1, start_column: 22, end_line: 1, end_column: 28 }));
    expect((data['diagnostics'] as { code: number | string }[]).map((d) => String(d.code))).toEqual(['2304']);
    const action = (data['actions'] as ActionOut[]).find((a) => a.title === 'Add import from "./shapes.js"');
    expect(action).toMatchObject({ kind: 'quickfix', fixes: ["Cannot find name 'Circle'."] });
    expect(action?.edits).toEqual([{ file: 'ts-basic/src/needsImport.ts', change: 'modified', lines: ['+1 import { Circle } from "./shapes.js";', '+2 '] }]);
    expect(data['missing']).toMatch(NO_REFACTORINGS);

    const applied = ok(await agent.call('apply_fix', { action_id: action?.action_id }));
    expect(applied).toMatchObject({ applied: true, title: 'Add import from "./shapes.js"' });
    expect(read('src/needsImport.ts')).toBe(WITH_IMPORT);
    ok(await agent.call('undo_last', {}));
    expect(read('src/needsImport.ts')).toBe(NEEDS_IMPORT);
  });

  it('"add all missing imports" is a plain edit there (no command): previewed, applied, undone', async () => {
    const two = 'export const a = new Circle(1);\nexport const b = new Square(2);\n';
    writeFileSync(join(root, 'ts-basic/src/two.ts'), two);
    const data = ok(await agent.call('suggest_fixes', { file_path: 'ts-basic/src/two.ts', start_line: 1, start_column: 22, end_line: 1, end_column: 28 }));
    const all = (data['actions'] as ActionOut[]).find((a) => a.title === 'Add all missing imports');
    expect(all).toMatchObject({ kind: 'quickfix' });
    expect(all?.command).toBeUndefined();
    expect(all?.edits).toEqual([{ file: 'ts-basic/src/two.ts', change: 'modified', lines: ['+1 import { Circle, Square } from "./shapes.js";', '+2 '] }]);
    ok(await agent.call('apply_fix', { action_id: all?.action_id }));
    expect(read('src/two.ts')).toBe(`import { Circle, Square } from "./shapes.js";\n\n${two}`);
    ok(await agent.call('undo_last', {}));
    expect(read('src/two.ts')).toBe(two);
  });

  it('organize imports by file_path + kind, undone', async () => {
    const applied = ok(await agent.call('apply_fix', { file_path: 'ts-basic/src/messy.ts', kind: 'source.organizeImports' }));
    expect(applied).toMatchObject({ applied: true, title: 'Organize Imports', checkpoint_id: expect.any(String) });
    expect(read('src/messy.ts')).toBe(ORGANIZED);
    ok(await agent.call('undo_last', {}));
    expect(read('src/messy.ts')).toBe(MESSY);
  });

  it('a refactoring asked for by kind is refused with what typescript-go lacks, nothing written', async () => {
    const main = read('src/main.ts');
    const range = { file_path: 'ts-basic/src/main.ts', start_line: 10, start_column: 49, end_line: 10, end_column: 62 };
    const suggested = await agent.call('suggest_fixes', { ...range, only: 'refactor.extract' });
    expect(suggested.isError).toBe(true);
    expect(suggested.text).toMatch(NO_REFACTORINGS);
    const applied = await agent.call('apply_fix', { ...range, kind: 'refactor.extract.constant' });
    expect(applied.isError).toBe(true);
    expect(applied.text).toMatch(NO_REFACTORINGS);
    expect(read('src/main.ts')).toBe(main);
  });

  it('execute_command: typescript-language-server\'s commands are refused with what to do instead, nothing written', async () => {
    for (const [command, args] of [
      ['_typescript.organizeImports', [join(root, 'ts-basic/src/messy.ts')]],
      ['typescript.tsserverRequest', ['quickinfo', { file: join(root, 'ts-basic/src/messy.ts'), line: 1, offset: 10 }]],
    ] as const) {
      const answer = await agent.call('execute_command', { command, arguments: [...args], file_path: 'ts-basic/src/messy.ts' });
      expect(answer.isError, answer.text).toBe(true);
      expect(answer.text).toContain(`agent-lsp does not run ${command} on typescript-go`);
      expect(answer.text).toMatch(NO_COMMANDS);
    }
    expect(read('src/messy.ts')).toBe(MESSY);
  });
});
