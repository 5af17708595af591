// Editing by symbol: replace_symbol_body, insert_before_symbol / insert_after_symbol and
// safe_delete_symbol write exactly the expected text (indentation, decorators, doc comments) as
// checkpointed transactions that undo_last restores, report the errors they introduced, and refuse
// bad input without changing anything — on real pyright and typescript-language-server.
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { FIXTURES } from '../helpers/paths.js';

function copyFixture(name: string): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `agent-lsp-${name}-`)));
  cpSync(join(FIXTURES, name), root, { recursive: true });
  return root;
}

/** The original file with lines first..last (1-based, inclusive; last = first - 1 to insert) replaced. */
function withLines(original: string, first: number, last: number, replacement: readonly string[]): string {
  const lines = original.split('\n');
  lines.splice(first - 1, last - first + 1, ...replacement);
  return lines.join('\n');
}

describe('symbol editing on Python (pyright)', () => {
  let agent: AgentLspClient;
  let root: string;
  let shapes: string;
  let main: string;
  const read = (file: string) => readFileSync(join(root, file), 'utf8');

  beforeAll(async () => {
    root = copyFixture('symbols-py');
    shapes = read('pkg/shapes.py');
    main = read('pkg/main.py');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });
  // Every test starts from the fixture's text: each undoes what it wrote.
  beforeEach(() => {
    expect(read('pkg/shapes.py')).toBe(shapes);
    expect(read('pkg/main.py')).toBe(main);
  });

  it('replaces a method body, re-indented, and undo_last restores the file', async () => {
    const data = ok(await agent.call('replace_symbol_body', { file_path: 'pkg/shapes.py', symbol_path: 'Circle.describe', new_body: 'label = "circle"\nreturn f"{label} {self.radius}"\n' }));
    expect(data).toMatchObject({ applied: true, symbol: 'Circle.describe', errors_after: [], warnings_after: [] });
    expect(data['checkpoint_id']).toMatch(/\S/);
    expect(read('pkg/shapes.py')).toBe(withLines(shapes, 32, 32, ['        label = "circle"', '        return f"{label} {self.radius}"']));
    ok(await agent.call('undo_last', {}));
    expect(read('pkg/shapes.py')).toBe(shapes);
  });

  it('takes the whole new definition as the original agent-lsp and Serena pass it: no nested duplicate, and says so', async () => {
    const answer = await agent.call('replace_symbol_body', { file_path: 'pkg/shapes.py', symbol_path: 'Circle.describe', new_body: 'def describe(self) -> str:\n    return f"round {self.radius}"\n' });
    expect(ok(answer)).toMatchObject({ applied: true, took: 'definition', errors_after: [] });
    expect(answer.text).toMatch(/^Took new_body as the whole definition \(signature included\)\./);
    expect(read('pkg/shapes.py')).toBe(withLines(shapes, 31, 32, ['    def describe(self) -> str:', '        return f"round {self.radius}"']));
    ok(await agent.call('undo_last', {}));
    const other = await agent.call('replace_symbol_body', { file_path: 'pkg/shapes.py', symbol_path: 'Circle.describe', new_body: 'def summary(self) -> str:\n    return "x"\n' });
    expect(other.isError).toBe(true);
    expect(other.text).toMatch(/new_body starts a definition of summary, not of describe/);
  });

  it('keeps the decorators and signature of a decorated method and reports an error the new body introduces', async () => {
    const data = ok(await agent.call('replace_symbol_body', { file_path: 'pkg/shapes.py', position_pattern: 'return 3.14159 * self.@@radius', new_body: '    return undefined_radius' }));
    expect(read('pkg/shapes.py')).toBe(withLines(shapes, 28, 29, ['        return undefined_radius']));
    const errors = data['errors_after'] as { file: string; line: number; message: string }[];
    expect(errors).toEqual([expect.objectContaining({ file: 'pkg/shapes.py', line: 28, message: expect.stringContaining('undefined_radius') })]);
    ok(await agent.call('undo_last', {}));
  });

  it('inserts before a method above its comment and decorators, at its indentation', async () => {
    ok(await agent.call('insert_before_symbol', { symbol_path: 'Circle.area', code: 'def perimeter(self) -> float:\n    return 2 * 3.14159 * self.radius' }));
    expect(read('pkg/shapes.py')).toBe(withLines(shapes, 22, 21, ['    def perimeter(self) -> float:', '        return 2 * 3.14159 * self.radius', '']));
    ok(await agent.call('undo_last', {}));
  });

  it('inserts after a top-level function with the file\'s two blank lines', async () => {
    ok(await agent.call('insert_after_symbol', { file_path: 'pkg/shapes.py', symbol_path: 'unused_helper', code: '    def twice(x):\n        return 2 * x\n' }));
    expect(read('pkg/shapes.py')).toBe(withLines(shapes, 46, 45, ['', '', 'def twice(x):', '    return 2 * x']));
    ok(await agent.call('undo_last', {}));
  });

  it('refuses to delete a referenced function, listing the references, and deletes it with force', async () => {
    const refused = await agent.call('safe_delete_symbol', { symbol_path: 'shapes.total_area' });
    const data = ok(refused);
    expect(data).toMatchObject({ refused: true, applied: false, references_total: 2 });
    expect((data['references'] as { file: string; line: number }[]).map((r) => `${r.file}:${r.line}`)).toEqual(['pkg/main.py:1', 'pkg/main.py:5']);
    expect(refused.text).toMatch(/^Refused: total_area is still referenced 2 time\(s\)/);
    expect(read('pkg/shapes.py')).toBe(shapes);

    const forced = ok(await agent.call('safe_delete_symbol', { symbol_path: 'shapes.total_area', force: true }));
    expect(read('pkg/shapes.py')).toBe(withLines(shapes, 46, 49, []));
    expect(forced['errors_after']).toEqual(expect.arrayContaining([expect.objectContaining({ file: 'pkg/main.py', line: 1, message: expect.stringContaining('total_area') })]));
    ok(await agent.call('undo_last', {}));
  });

  it('deletes an unreferenced decorated method with its comment and decorators', async () => {
    ok(await agent.call('safe_delete_symbol', { file_path: 'pkg/shapes.py', symbol_path: 'Circle.area' }));
    expect(read('pkg/shapes.py')).toBe(withLines(shapes, 21, 29, []));
    ok(await agent.call('undo_last', {}));
  });

  it('changes nothing on an unknown path, an ambiguous path or a file outside the roots', async () => {
    const unknown = await agent.call('replace_symbol_body', { file_path: 'pkg/shapes.py', symbol_path: 'Circle.aera', new_body: 'pass' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/No symbol matches symbol_path "Circle.aera" in pkg\/shapes.py\. Close matches: Circle\.area/);
    const ambiguous = await agent.call('safe_delete_symbol', { symbol_path: 'area', force: true });
    expect(ambiguous.isError).toBe(true);
    expect(ambiguous.text).toMatch(/ambiguous: 2 symbols match/);
    const outside = await agent.call('insert_after_symbol', { file_path: '/etc/hostname', symbol_path: 'x', code: 'y = 1' });
    expect(outside.isError).toBe(true);
    expect(outside.text).toMatch(/outside/);
    const list = ok(await agent.call('list_checkpoints', {}));
    expect(list['total'] ?? (list['checkpoints'] as unknown[]).length).toBeGreaterThan(0);
  });
});

describe('symbol editing on TypeScript (typescript-language-server)', () => {
  let agent: AgentLspClient;
  let root: string;
  let shapes: string;
  const read = () => readFileSync(join(root, 'src/shapes.ts'), 'utf8');

  beforeAll(async () => {
    root = copyFixture('symbols-ts');
    shapes = read();
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(() => {
    expect(read()).toBe(shapes);
  });

  it('replaces the text between a method\'s braces, re-indented', async () => {
    const data = ok(await agent.call('replace_symbol_body', { file_path: 'src/shapes.ts', symbol_path: 'Circle.describe', new_body: "const label = 'circle';\nreturn `${label} ${this.radius}`;" }));
    expect(data).toMatchObject({ applied: true, errors_after: [] });
    expect(read()).toBe(withLines(shapes, 30, 30, ["    const label = 'circle';", '    return `${label} ${this.radius}`;']));
    ok(await agent.call('undo_last', {}));
    expect(read()).toBe(shapes);
  });

  it('inserts before a method above its JSDoc, and after a decorated class', async () => {
    ok(await agent.call('insert_before_symbol', { file_path: 'src/shapes.ts', symbol_path: 'Circle.area', code: 'perimeter(): number {\n  return 2 * Math.PI * this.radius;\n}' }));
    expect(read()).toBe(withLines(shapes, 22, 21, ['  perimeter(): number {', '    return 2 * Math.PI * this.radius;', '  }', '']));
    ok(await agent.call('undo_last', {}));
    ok(await agent.call('insert_after_symbol', { file_path: 'src/shapes.ts', symbol_path: 'Circle', code: 'export const UNIT = new Circle(1);' }));
    expect(read()).toBe(withLines(shapes, 33, 32, ['', 'export const UNIT = new Circle(1);']));
    ok(await agent.call('undo_last', {}));
  });

  it('deletes an unreferenced namespace member, refuses a referenced one, and takes JSDoc and decorator with a forced class delete', async () => {
    ok(await agent.call('safe_delete_symbol', { symbol_path: 'Geometry.unusedHelper' }));
    expect(read()).toBe(withLines(shapes, 11, 14, []));
    ok(await agent.call('undo_last', {}));

    const refused = ok(await agent.call('safe_delete_symbol', { symbol_path: 'Geometry.distance' }));
    expect(refused).toMatchObject({ refused: true, references_total: 1, references: [expect.objectContaining({ file: 'src/main.ts', line: 4 })] });
    expect(read()).toBe(shapes);

    const forced = ok(await agent.call('safe_delete_symbol', { file_path: 'src/shapes.ts', symbol_path: 'Circle', force: true }));
    expect(read()).toBe(withLines(shapes, 17, 33, []));
    expect((forced['errors_after'] as { file: string }[]).some((e) => e.file === 'src/main.ts')).toBe(true);
    ok(await agent.call('undo_last', {}));
  });

  it('refuses an overloaded function as ambiguous and writes nothing', async () => {
    const answer = await agent.call('replace_symbol_body', { file_path: 'src/shapes.ts', symbol_path: 'scale', new_body: 'return x;' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/ambiguous: 3 symbols match:\n {2}scale \(function\) src\/shapes.ts:42\n {2}scale \(function\) src\/shapes.ts:43\n {2}scale \(function\) src\/shapes.ts:44/);
  });
});

const clangdInstalled = onPath('clangd');
if (!clangdInstalled) console.warn('clangd is not installed: the C++ symbol editing test did not run (apt-get install clangd)');

describe.skipIf(!clangdInstalled)('symbol editing on C++ (clangd; skipped when clangd is missing)', () => {
  let agent: AgentLspClient;
  let root: string;
  let person: string;
  const read = () => readFileSync(join(root, 'person.cpp'), 'utf8');

  beforeAll(async () => {
    root = copyFixture('cpp-basic');
    person = read();
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('resolves an out-of-line Class::method and opens its one-line body onto lines', async () => {
    const source = ok(await agent.call('get_symbol_source', { symbol_path: 'person.cpp:Person::describe' }));
    expect(source).toMatchObject({ start_line: 9, end_line: 11 });
    expect(source['source']).toBe(person.split('\n').slice(8, 11).join('\n'));
    ok(await agent.call('replace_symbol_body', { file_path: 'person.cpp', symbol_path: 'Person.ageIn', new_body: 'return year - birthYear_ + 0;' }));
    expect(read()).toBe(withLines(person, 7, 7, ['int Person::ageIn(int year) const {', '  return year - birthYear_ + 0;', '}']));
    ok(await agent.call('undo_last', {}));
    expect(read()).toBe(person);
  });
});
