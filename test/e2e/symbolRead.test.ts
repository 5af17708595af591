// Reading by symbol: get_symbol_source gives a symbol's exact lines (decorators and doc comments
// included), go_to_symbol resolves dotted paths (nested, ambiguous, unknown), and
// get_symbol_documentation answers with Python docstrings (read by ast, never imported), go doc or hover — on real pyright,
// typescript-language-server and gopls.
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { FIXTURES } from '../helpers/paths.js';

function copyFixture(name: string): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `agent-lsp-${name}-`)));
  cpSync(join(FIXTURES, name), root, { recursive: true });
  return root;
}

/** Lines first..last (1-based, inclusive) of a file, as the tools must give them. */
function fileLines(root: string, file: string, first: number, last: number): string {
  return readFileSync(join(root, file), 'utf8').split('\n').slice(first - 1, last).join('\n');
}

describe('symbol reading on Python (pyright)', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = copyFixture('symbols-py');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('gives a decorated method with its comment and decorators, exactly the file\'s lines', async () => {
    const data = ok(await agent.call('get_symbol_source', { symbol_path: 'Circle.area', file_path: 'pkg/shapes.py' }));
    expect(data).toMatchObject({ name: 'area', qualified_name: 'Circle.area', kind: 'method', file: 'pkg/shapes.py', start_line: 22, end_line: 29 });
    expect(data['source']).toBe(fileLines(root, 'pkg/shapes.py', 22, 29));
    expect(data['source']).toMatch(/^ {4}# The area, cached\.\n {4}@log_calls\n/);
  });

  it('answers on the disk as it is now: lines inserted above the symbol by an outside write between two calls', async () => {
    const before = ok(await agent.call('get_symbol_source', { symbol_path: 'Circle.area', file_path: 'pkg/shapes.py' }));
    const path = join(root, 'pkg', 'shapes.py');
    const original = readFileSync(path, 'utf8');
    try {
      // An editor or another tool adds three lines at the top; the server has the old text open.
      writeFileSync(path, `# one\n# two\n# three\n${original}`);
      const after = ok(await agent.call('get_symbol_source', { symbol_path: 'Circle.area', file_path: 'pkg/shapes.py' }));
      expect(after['start_line']).toBe((before['start_line'] as number) + 3);
      expect(after['end_line']).toBe((before['end_line'] as number) + 3);
      expect(after['source']).toBe(fileLines(root, 'pkg/shapes.py', after['start_line'] as number, after['end_line'] as number));
      expect(after['source']).toBe(before['source']);
    } finally {
      writeFileSync(path, original);
    }
  });

  it('finds the innermost symbol at a position, and a nested function by path through the workspace', async () => {
    const inner = ok(await agent.call('get_symbol_source', { file_path: 'pkg/shapes.py', position_pattern: 'return fn(*@@args' }));
    expect(inner).toMatchObject({ qualified_name: 'log_calls.wrapper', start_line: 9, end_line: 11 });
    expect(inner['source']).toBe(fileLines(root, 'pkg/shapes.py', 9, 11));
    const byPath = ok(await agent.call('get_symbol_source', { symbol_path: 'pkg.shapes.log_calls.wrapper' }));
    expect(byPath['source']).toBe(inner['source']);
  });

  it('go_to_symbol: module path, nested path, ambiguous and unknown paths', async () => {
    const one = ok(await agent.call('go_to_symbol', { symbol_path: 'shapes.total_area' }));
    expect(one).toMatchObject({ total: 1, ambiguous: false });
    expect(one['definitions']).toEqual([expect.objectContaining({ qualified_name: 'total_area', match: 'exact', file: 'pkg/shapes.py', line: 48, column: 5 })]);

    const nested = ok(await agent.call('go_to_symbol', { symbol_path: 'log_calls.wrapper' }));
    expect(nested['definitions']).toEqual([expect.objectContaining({ qualified_name: 'log_calls.wrapper', line: 10 })]);

    const twoAreas = await agent.call('go_to_symbol', { symbol_path: 'area' });
    const data = ok(twoAreas);
    expect(data['ambiguous']).toBe(true);
    expect((data['definitions'] as { qualified_name: string }[]).map((d) => d.qualified_name)).toEqual(['Circle.area', 'Square.area']);
    expect(twoAreas.text).toMatch(/^Ambiguous: 2 definitions match/);

    const unknown = await agent.call('go_to_symbol', { symbol_path: 'Circle.aera' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/No symbol matches symbol_path "Circle.aera".*Close matches: .*Circle\.area/s);
  });

  it('an ambiguous path is refused by get_symbol_source with the candidates', async () => {
    const answer = await agent.call('get_symbol_source', { symbol_path: 'area' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/ambiguous: 2 symbols match/);
    expect(answer.text).toContain('Circle.area (method) pkg/shapes.py:27');
    expect(answer.text).toContain('Square.area (method) pkg/shapes.py:39');
  });

  it('documents a function from its docstring, read by ast in the workspace interpreter', async () => {
    const answer = await agent.call('get_symbol_documentation', { symbol_path: 'shapes.unused_helper' });
    const data = ok(answer);
    expect(data['source']).toBe('python ast');
    expect((data['command'] as string[]).slice(1)).toEqual(['-I', '-', join(root, 'pkg', 'shapes.py'), 'unused_helper']);
    expect(data['documentation']).toBe('def unused_helper(x: int) -> int\n    Adds one; nobody calls this.\n');
  });

  it('documents a class with its methods and a decorated method with its decorators', async () => {
    const cls = ok(await agent.call('get_symbol_documentation', { symbol_path: 'Circle', file_path: 'pkg/shapes.py' }));
    expect(cls['documentation']).toContain('class Circle\n    A circle.\n');
    expect(cls['documentation']).toContain('        def area(self) -> float\n            The area.');
    const method = ok(await agent.call('get_symbol_documentation', { symbol_path: 'Circle.area', file_path: 'pkg/shapes.py' }));
    expect(method['documentation']).toBe('@log_calls\n@functools.lru_cache(maxsize=None)\ndef area(self) -> float\n    The area.\n');
    // The original agent-lsp's call shape: symbol (its name for symbol_path) and language_id.
    const original = ok(await agent.call('get_symbol_documentation', { symbol: 'Circle.area', language_id: 'python', file_path: 'pkg/shapes.py' }));
    expect(original['documentation']).toBe(method['documentation']);
    const both = await agent.call('get_symbol_documentation', { symbol: 'Circle', symbol_path: 'Circle.area', file_path: 'pkg/shapes.py' });
    expect(both.text).toMatch(/symbol and symbol_path name the same thing/);
  });

  it('never runs the module: a file with side effects at import is read, not imported', async () => {
    const marker = join(root, 'imported.marker');
    writeFileSync(
      join(root, 'pkg', 'effects.py'),
      `open(${JSON.stringify(marker)}, "w").write("module code ran")\n\n\ndef launch(count: int) -> None:\n    """Starts count rockets."""\n`,
    );
    const data = ok(await agent.call('get_symbol_documentation', { file_path: 'pkg/effects.py', symbol_path: 'launch' }));
    expect(data['documentation']).toBe('def launch(count: int) -> None\n    Starts count rockets.\n');
    expect(existsSync(marker)).toBe(false);
  });

  it('says when documentation too long to give whole was cut', async () => {
    writeFileSync(join(root, 'pkg', 'long_doc.py'), `def verbose() -> None:\n    """${'word '.repeat(6000)}"""\n`);
    const answer = await agent.call('get_symbol_documentation', { file_path: 'pkg/long_doc.py', symbol_path: 'verbose' });
    const data = ok(answer);
    expect(data['truncated_at']).toBe(20_000);
    expect((data['documentation'] as string).length).toBe(20_000);
    expect(answer.text).toContain('[cut at 20000 characters: get_symbol_source gives the whole symbol]');
    const short = ok(await agent.call('get_symbol_documentation', { symbol_path: 'shapes.unused_helper' }));
    expect(short['truncated_at']).toBeUndefined();
  });

  it('reads the docstring as it is on disk now, after an outside edit', async () => {
    const file = join(root, 'pkg', 'shapes.py');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, before.replace('"""Adds one; nobody calls this."""', '"""Adds one, edited outside."""'));
    try {
      const data = ok(await agent.call('get_symbol_documentation', { symbol_path: 'shapes.unused_helper' }));
      expect(data['documentation']).toContain('Adds one, edited outside.');
    } finally {
      writeFileSync(file, before);
    }
  });
});

describe('symbol reading on TypeScript (typescript-language-server)', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = copyFixture('symbols-ts');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('gives a decorated class with its JSDoc, and a method with its JSDoc', async () => {
    const cls = ok(await agent.call('get_symbol_source', { symbol_path: 'src/shapes.ts:Circle' }));
    expect(cls).toMatchObject({ kind: 'class', start_line: 17, end_line: 32 });
    expect(cls['source']).toBe(fileLines(root, 'src/shapes.ts', 17, 32));
    const method = ok(await agent.call('get_symbol_source', { file_path: 'src/shapes.ts', position_pattern: 'Math.PI * this.@@radius' }));
    expect(method).toMatchObject({ qualified_name: 'Circle.area', start_line: 22, end_line: 27 });
    expect(method['source']).toBe(fileLines(root, 'src/shapes.ts', 22, 27));
  });

  it('go_to_symbol resolves a namespace member from the workspace and file-qualified', async () => {
    const found = ok(await agent.call('go_to_symbol', { symbol_path: 'Geometry.distance' }));
    expect(found['definitions']).toEqual([expect.objectContaining({ qualified_name: 'Geometry.distance', file: 'src/shapes.ts', line: 8, match: 'exact' })]);
    const qualified = ok(await agent.call('go_to_symbol', { symbol_path: 'src/shapes.ts:Geometry.distance' }));
    expect(qualified['definitions']).toEqual(found['definitions']);
  });

  it('reports an overloaded function as ambiguous, one candidate per signature', async () => {
    const data = ok(await agent.call('go_to_symbol', { symbol_path: 'scale' }));
    expect(data).toMatchObject({ ambiguous: true, total: 3 });
    expect((data['definitions'] as { line: number }[]).map((d) => d.line)).toEqual([42, 43, 44]);
    const source = await agent.call('get_symbol_source', { symbol_path: 'src/shapes.ts:scale' });
    expect(source.isError).toBe(true);
    expect(source.text).toMatch(/ambiguous: 3 symbols match/);
  });

  it('says when no symbol encloses a position', async () => {
    const answer = await agent.call('get_symbol_source', { file_path: 'src/shapes.ts', line: 16, column: 1 });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/No symbol encloses line 16, column 1 in src\/shapes.ts/);
  });

  it('documents a TypeScript function with the hover', async () => {
    const data = ok(await agent.call('get_symbol_documentation', { symbol_path: 'Geometry.distance' }));
    expect(data['source']).toBe('hover');
    expect(data['documentation']).toContain('Distance between two numbers.');
    expect(data['documentation']).toContain('function Geometry.distance(a: number, b: number): number');
  });
});

const goInstalled = onPath('go') && onPath('gopls');
if (!goInstalled) console.warn('go or gopls is not installed: the go doc test did not run (install Go and `go install golang.org/x/tools/gopls@latest`)');

describe.skipIf(!goInstalled)('symbol documentation on Go (gopls, go doc; skipped when go or gopls is missing)', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = copyFixture('go-basic');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'go' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('gives a Go function with its doc comment', async () => {
    const data = ok(await agent.call('get_symbol_source', { symbol_path: 'geometry.Distance' }));
    expect(data).toMatchObject({ qualified_name: 'Distance', file: 'geometry/geometry.go', start_line: 11, end_line: 14 });
    expect(data['source']).toBe(fileLines(root, 'geometry/geometry.go', 11, 14));
  });

  it('answers with go doc for the package and symbol', async () => {
    const data = ok(await agent.call('get_symbol_documentation', { file_path: 'geometry/geometry.go', symbol_path: 'Distance' }));
    expect(data['source']).toBe('go doc');
    expect((data['command'] as string[]).slice(1)).toEqual(['doc', './geometry', 'Distance']);
    expect(data['documentation']).toContain('Distance returns the straight-line distance between a and b.');
  });
});
