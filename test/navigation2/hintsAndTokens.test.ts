// get_inlay_hints and get_semantic_tokens against the real servers: exact hints and decoded tokens
// where the server has them (typescript-language-server, gopls, clangd), a clear refusal where it
// has not (pyright).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { at, copyFixture, span } from './workspaceCopy.js';

/** The column right after `needle` on that line (where an inlay hint before the next character sits). */
function after(text: string, line: number, needle: string): number {
  return at(text, line, needle).column + [...needle].length;
}

function installed(binary: string): boolean {
  const found = onPath(binary);
  if (!found) console.warn(`${binary} is not installed: its inlay hint / semantic token tests did not run`);
  return found;
}

describe('typescript-language-server', () => {
  let agent: AgentLspClient;
  let ws: { root: string; remove(): void };
  let main: string;
  let shapes: string;

  beforeAll(async () => {
    ws = copyFixture('ts-basic');
    main = readFileSync(join(ws.root, 'src/main.ts'), 'utf8');
    shapes = readFileSync(join(ws.root, 'src/shapes.ts'), 'utf8');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: ws.root }));
  });
  afterAll(async () => {
    await agent.close();
    ws.remove();
  });

  it('get_inlay_hints gives parameter names and inferred types at exact character positions', async () => {
    const data = ok(await agent.call('get_inlay_hints', { file_path: 'src/main.ts' }));
    const p = (line: number, needle: string, label: string) => ({ line, column: after(main, line, needle), label, kind: 'parameter', padding_right: true });
    const t = (line: number, needle: string, label: string) => ({ line, column: after(main, line, needle), label, kind: 'type', padding_left: true });
    expect(data['hints']).toEqual([
      p(3, 'new Circle(', 'radius:'),
      p(3, 'new Square(', 'side:'),
      p(10, 'Math.max(', '...values:'),
      p(10, 'list.map(', 'callbackfn:'),
      t(10, 'list.map((s', ': Shape'),
      t(10, 'list.map((s)', ': number'),
      p(10, 'totalArea(', 'shapes:'),
    ]);
  });

  it('get_inlay_hints with start_line/end_line keeps to those lines', async () => {
    const data = ok(await agent.call('get_inlay_hints', { file_path: 'src/main.ts', start_line: 3, end_line: 3 }));
    expect((data['hints'] as { label: string }[]).map((h) => h.label)).toEqual(['radius:', 'side:']);
  });

  it('get_semantic_tokens decodes a line: the class name is `class` with `declaration`', async () => {
    const line = 5; // export class Circle implements Shape {
    const data = ok(await agent.call('get_semantic_tokens', { file_path: 'src/shapes.ts', start_line: line, end_line: line }));
    expect(data['tokens']).toEqual([
      { ...pick(span(shapes, line, 'Circle')), length: 6, type: 'class', modifiers: ['declaration'], text: 'Circle' },
      { ...pick(span(shapes, line, 'Shape')), length: 5, type: 'interface', modifiers: [], text: 'Shape' },
    ]);
  });

  it('get_semantic_tokens of the whole file holds the same tokens, pages, and counts non-ASCII names in characters', async () => {
    const all = ok(await agent.call('get_semantic_tokens', { file_path: 'src/main.ts' }));
    const tokens = all['tokens'] as { line: number; column: number; length: number; text: string; type: string }[];
    expect(tokens.find((t) => t.text === '名前')).toEqual({ ...pick(span(main, 3, '名前')), length: 2, type: 'variable', modifiers: ['declaration', 'readonly'], text: '名前' });
    const second = ok(await agent.call('get_semantic_tokens', { file_path: 'src/main.ts', offset: 1, limit: 2 }));
    expect(second['tokens']).toEqual(tokens.slice(1, 3));
    expect(second['total']).toBe(tokens.length);
    expect(second['complete']).toBe(false);
  });
});

function pick(r: { line: number; column: number }) {
  return { line: r.line, column: r.column };
}

describe('pyright', () => {
  let agent: AgentLspClient;
  let ws: { root: string; remove(): void };
  beforeAll(async () => {
    ws = copyFixture('python-basic');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: ws.root }));
  });
  afterAll(async () => {
    await agent.close();
    ws.remove();
  });

  it('says plainly that it has no inlay hints and no semantic tokens', async () => {
    const hints = await agent.call('get_inlay_hints', { file_path: 'app/geometry.py' });
    expect(hints.isError).toBe(true);
    expect(hints.text).toContain('pyright does not support get_inlay_hints (textDocument/inlayHint)');
    const tokens = await agent.call('get_semantic_tokens', { file_path: 'app/geometry.py' });
    expect(tokens.isError).toBe(true);
    expect(tokens.text).toContain('pyright does not support get_semantic_tokens');
  });
});

describe.skipIf(!installed('gopls'))('gopls', () => {
  let agent: AgentLspClient;
  let ws: { root: string; remove(): void };
  let main: string;
  let geometry: string;
  beforeAll(async () => {
    ws = copyFixture('go-basic');
    main = readFileSync(join(ws.root, 'main.go'), 'utf8');
    geometry = readFileSync(join(ws.root, 'geometry/geometry.go'), 'utf8');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: ws.root }));
  });
  afterAll(async () => {
    await agent.close();
    ws.remove();
  });

  it('get_inlay_hints gives parameter names after the non-ASCII string, in characters', async () => {
    const data = ok(await agent.call('get_inlay_hints', { file_path: 'main.go', start_line: 12, end_line: 12 }));
    const hints = (data['hints'] as { line: number; column: number; label: string; kind: string }[]).map(({ line, column, label, kind }) => ({ line, column, label, kind }));
    expect(hints).toEqual([
      { line: 12, column: after(main, 12, 'Println('), label: 'a...:', kind: 'parameter' },
      { line: 12, column: after(main, 12, 'Distance('), label: 'a:', kind: 'parameter' },
      { line: 12, column: after(main, 12, 'origin, '), label: 'b:', kind: 'parameter' },
    ]);
  });

  it('get_semantic_tokens decodes a function head', async () => {
    const data = ok(await agent.call('get_semantic_tokens', { file_path: 'geometry/geometry.go', start_line: 12, end_line: 12 }));
    const tokens = (data['tokens'] as { column: number; type: string; modifiers: string[]; text: string }[]).map((t) => `${t.column} ${t.type}[${t.modifiers.join(',')}] ${t.text}`);
    expect(tokens).toEqual([
      `${at(geometry, 12, 'func').column} keyword[] func`,
      // gopls v0.23's modifiers (.ci/run pins it): the kind of type a name has joins its token.
      `${at(geometry, 12, 'Distance').column} function[definition,signature] Distance`,
      `${at(geometry, 12, 'a,').column} parameter[definition,struct] a`,
      `${at(geometry, 12, 'b Point').column} parameter[definition,struct] b`,
      `${at(geometry, 12, 'Point').column} type[struct] Point`,
      `${at(geometry, 12, 'float64').column} type[defaultLibrary,number] float64`,
    ]);
  });

  it('get_document_highlights and prepare_rename (a standard-library symbol is refused)', async () => {
    const hl = ok(await agent.call('get_document_highlights', { file_path: 'geometry/geometry.go', position_pattern: 'func Distance(@@a' }));
    // The declaration is a text highlight, the uses are reads (gopls v0.23).
    expect(hl['highlights']).toEqual([span(geometry, 12, 'a,'), span(geometry, 13, 'a.X'), span(geometry, 13, 'a.Y')].map((r, i) => ({ ...r, end_column: r.column + 1, kind: i === 0 ? 'text' : 'read' })));
    const lib = ok(await agent.call('prepare_rename', { file_path: 'geometry/geometry.go', position_pattern: 'math.@@Hypot' }));
    expect(lib['renameable']).toBe(false);
    expect(lib['reason']).toMatch(/"Hypot" is defined outside the workspace, in \/.*math\/hypot\.go/);
  });
});

describe.skipIf(!installed('clangd'))('clangd', () => {
  let agent: AgentLspClient;
  let ws: { root: string; remove(): void };
  let main: string;
  beforeAll(async () => {
    ws = copyFixture('cpp-basic');
    main = readFileSync(join(ws.root, 'main.cpp'), 'utf8');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: ws.root }));
  });
  afterAll(async () => {
    await agent.close();
    ws.remove();
  });

  it('get_semantic_tokens decodes a declaration and columns after non-ASCII text', async () => {
    const data = ok(await agent.call('get_semantic_tokens', { file_path: 'main.cpp', start_line: 6, end_line: 7 }));
    const tokens = data['tokens'] as { line: number; column: number; type: string; modifiers: string[]; text: string }[];
    expect(tokens.find((t) => t.text === 'Person')).toMatchObject({ ...pick(at(main, 6, 'Person')), type: 'class' });
    expect(tokens.find((t) => t.line === 6 && t.text === 'ada')).toMatchObject({ ...pick(at(main, 6, 'ada')), type: 'variable' });
    expect(tokens.find((t) => t.line === 6 && t.text === 'ada')?.modifiers).toContain('declaration');
    expect(tokens.find((t) => t.text === 'ageIn')).toMatchObject({ ...pick(at(main, 7, 'ageIn')), type: 'method' });
  });

  it('prepare_rename: a variable is renameable, a keyword is refused with the server\'s reason', async () => {
    expect(ok(await agent.call('prepare_rename', { file_path: 'main.cpp', position_pattern: 'Person @@ada' }))).toMatchObject({ renameable: true, placeholder: 'ada', range: span(main, 6, 'ada') });
    const keyword = await agent.call('prepare_rename', { file_path: 'main.cpp', position_pattern: '@@return 0' });
    expect(keyword.isError).toBe(false);
    expect(keyword.data['renameable']).toBe(false);
    expect(keyword.text).toMatch(/^cannot rename here: /);
  });
});
