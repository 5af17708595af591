// Field cases of the tools that take a symbol by its dotted path (Class.method): go_to_symbol (the
// definitions of the path in the whole workspace), get_symbol_source (its lines, with its doc
// comment and decorators) and get_symbol_documentation (Python's docstring, go doc, else the hover).
// The truth: the server asked directly — its workspace symbols for the path's last name, then each
// such file's document symbols, matched by the chain of names — and, for the documentation, what
// Python's ast module and `go doc` say when the test runs them itself.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { ok } from '../helpers/mcpClient.js';
import { compareSets, type Outcome } from './fieldOutcome.js';
import { claimsComplete, hoverText, locationKeys, type FieldContext, type FieldSpec } from './fieldSuite.js';
import type { FieldLocation, RawDocumentSymbol, RawServer } from './rawServer.js';

type Recorder = (tool: string, label: string, result: { outcome: Outcome; detail?: string }) => void;

/** A symbol the server's document symbols name by the path: its name's range and its whole range. */
interface Declared {
  file: string;
  selection: FieldLocation;
  whole: FieldLocation;
}

/** gopls names a method `(*T).M` or `(T).M` at the top level: the chain of names is T, M. */
function nameChain(name: string): string[] {
  const method = /^\(\*?([^)]+)\)\.(.+)$/.exec(name);
  return method ? [method[1]!, method[2]!] : [name];
}

/** The symbols of one file whose chain of names, from the top, is the path's segments. */
async function declaredIn(raw: RawServer, file: string, languageId: string, segments: readonly string[]): Promise<Declared[]> {
  await raw.open(file, languageId);
  const uri = raw.uri(file);
  const symbols = (await raw.request<RawDocumentSymbol[] | null>('textDocument/documentSymbol', { textDocument: { uri } })) ?? [];
  const found: Declared[] = [];
  const walk = (list: readonly RawDocumentSymbol[], above: readonly string[]): void => {
    for (const s of list) {
      const chain = [...above, ...nameChain(s.name)];
      if (chain.length === segments.length && chain.every((n, i) => n === segments[i])) found.push({ file, selection: raw.location(uri, s.selectionRange), whole: raw.location(uri, s.range) });
      walk(s.children ?? [], chain);
    }
  };
  walk(symbols, []);
  return found;
}

/** Every declaration of the path in the workspace: the files the server's workspace symbols name for its last segment, and the path's own file. */
async function declaredInWorkspace(ctx: FieldContext, file: string, segments: readonly string[]): Promise<Declared[]> {
  const hits = (await ctx.raw.request<{ name: string; location: { uri: string } }[] | null>('workspace/symbol', { query: segments.at(-1) })) ?? [];
  const files = new Set([file]);
  for (const h of hits) {
    if (!nameChain(h.name).includes(segments.at(-1)!)) continue;
    const [rel] = locationKeys(ctx.corpus.root, [ctx.raw.location(h.location.uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } })]);
    if (!rel!.startsWith('..') && !rel!.startsWith('/')) files.add(rel!.replace(/:.*$/, ''));
  }
  const all = await Promise.all([...files].map((f) => declaredIn(ctx.raw, f, ctx.spec.languageId, segments)));
  return all.flat();
}

const COMMENT_OR_DECORATOR = /^\s*(\/\/|\/\*|\*|#|@)/;

/**
 * The symbol's lines as an editor shows them: from the server's range, extended upward over the
 * comment and decorator lines directly above it (a blank line ends them), to the range's last line.
 */
function sourceLines(text: string, whole: FieldLocation): { start: number; end: number } {
  return { start: preambleStart(text.split(/\r?\n/), whole.line - 1) + 1, end: whole.end_column === 1 && whole.end_line > whole.line ? whole.end_line - 1 : whole.end_line };
}

/** The first line (0-based) of the comment and decorator lines directly above 0-based line `start`: a symbol's own (a blank line ends them). */
export function preambleStart(lines: readonly string[], start: number): number {
  let from = start;
  while (from > 0 && COMMENT_OR_DECORATOR.test(lines[from - 1]!) && !lines[from - 1]!.startsWith('#!')) from--;
  return from;
}

/** Python's own docstring of the path's symbol (ast.get_docstring), read without importing the module. */
function pythonDocstring(root: string, file: string, segments: readonly string[]): string {
  const script = [
    'import ast, sys',
    'node = ast.parse(open(sys.argv[1], encoding="utf-8").read())',
    'for name in sys.argv[2:]:',
    '    node = next(n for n in node.body if getattr(n, "name", None) == name)',
    'print(ast.get_docstring(node) or "")',
  ].join('\n');
  return execFileSync('python3', ['-c', script, join(root, file), ...segments], { encoding: 'utf8' }).trim();
}

const folded = (text: string): string => text.replace(/\s+/g, ' ').trim();

export function symbolCases(ctx: FieldContext, spec: FieldSpec, record: Recorder): void {
  const root = () => ctx.corpus.root;

  /** go_to_symbol of the path against the server's symbols as the disk is now. */
  async function goToSymbol(file: string, path: string, label: string): Promise<void> {
    const segments = path.split('.');
    const truth = locationKeys(root(), (await declaredInWorkspace(ctx, file, segments)).map((d) => d.selection));
    expect(truth.length, 'the server declares the path').toBeGreaterThan(0);
    const data = ok(await ctx.agent.call('go_to_symbol', { symbol_path: path, language_id: spec.languageId }));
    const exact = ((data['definitions'] as (FieldLocation & { match: string })[] | undefined) ?? []).filter((d) => d.match === 'exact');
    record('go_to_symbol', label, compareSets(locationKeys(root(), exact), truth, claimsComplete(data)));
  }

  /** get_symbol_source of the path against the server's range and the disk's lines as they are now. */
  async function symbolSource(file: string, path: string, label: string): Promise<void> {
    const [declared] = await declaredIn(ctx.raw, file, spec.languageId, path.split('.'));
    expect(declared, 'the server declares the path in the file').toBeDefined();
    const disk = readFileSync(join(root(), file), 'utf8');
    const truth = sourceLines(disk, declared!.whole);
    const data = ok(await ctx.agent.call('get_symbol_source', { symbol_path: path, file_path: file }));
    // The lines, and whether the text given is the disk's text of those lines.
    const lines = disk.split(/\r?\n/);
    const diskText = (start: number, end: number): string => lines.slice(start - 1, end).join(disk.includes('\r\n') ? '\r\n' : '\n');
    const key = (start: number, end: number, source: string) => `${file}:${start}-${end}${source === diskText(start, end) ? '' : ' (not the disk text)'}`;
    const ours = key(data['start_line'] as number, data['end_line'] as number, data['source'] as string);
    record('get_symbol_source', label, compareSets([ours], [key(truth.start, truth.end, diskText(truth.start, truth.end))], claimsComplete(data)));
  }

  it.each(spec.symbolPaths ?? [])('go_to_symbol "$path" is every declaration the server\'s symbols give', ({ file, path }) => goToSymbol(file, path, path));

  it.each(spec.symbolPaths ?? [])('get_symbol_source $file:$path is the server\'s range of it with its doc comment', ({ file, path }) => symbolSource(file, path, `${file}:${path}`));

  // Lines inserted above the symbol by sed, between two calls: both answers move with them, and
  // back when the file is put back (the truth: the server asked directly with the disk's text).
  const [first] = spec.symbolPaths ?? [];
  if (first) {
    it(`go_to_symbol and get_symbol_source of ${first.path} after sed -i inserted lines into ${first.file}, and after it was put back`, async () => {
      const path = join(root(), first.file);
      const original = readFileSync(path, 'utf8');
      try {
        const r = spawnSync('sed', ['-i', '-e', `1i ${spec.comment} field: line one inserted by sed`, '-e', `1i ${spec.comment} field: line two`, first.file], { cwd: root() });
        if (r.status !== 0) throw new Error(`sed failed: ${String(r.stderr)}`);
        await goToSymbol(first.file, first.path, `${first.path}, after sed -i on ${first.file}`);
        await symbolSource(first.file, first.path, `${first.file}:${first.path}, after sed -i`);
      } finally {
        writeFileSync(path, original);
      }
      await goToSymbol(first.file, first.path, `${first.path}, after ${first.file} was put back`);
      await symbolSource(first.file, first.path, `${first.file}:${first.path}, after it was put back`);
    });
  }

  it.each(spec.symbolPaths ?? [])('get_symbol_documentation $file:$path is what the language\'s own tools say', async ({ file, path }) => {
    const truth = await documentationTruth(ctx, file, path);
    expect(truth.text, 'there is documentation to find').not.toBe('');
    const data = ok(await ctx.agent.call('get_symbol_documentation', { symbol_path: path, file_path: file }));
    const ours = folded((data['documentation'] as string | undefined) ?? '');
    // Python's answer is the signature and then the docstring: the docstring must be in it, whole.
    const text = spec.languageId === 'python' && ours.includes(truth.text) ? truth.text : ours;
    record('get_symbol_documentation', `${file}:${path}`, compareSets([`${String(data['source'])}: ${text}`], [`${truth.source}: ${truth.text}`], claimsComplete(data)));
  });
}

/** The documentation of a path, from Python's ast, `go doc` (both run by the test), or else the server's hover of the symbol's name. */
async function documentationTruth(ctx: FieldContext, file: string, path: string): Promise<{ source: string; text: string }> {
  const root = ctx.corpus.root;
  const segments = path.split('.');
  if (ctx.spec.languageId === 'python') return { source: 'python ast', text: folded(pythonDocstring(root, file, segments)) };
  if (ctx.spec.languageId === 'go') return { source: 'go doc', text: folded(execFileSync('go', ['doc', `./${dirname(file)}`, path], { cwd: root, encoding: 'utf8' })) };
  const [declared] = await declaredIn(ctx.raw, file, ctx.spec.languageId, segments);
  expect(declared, 'the server declares the path in the file').toBeDefined();
  const hover = await ctx.raw.request<{ contents: unknown } | null>('textDocument/hover', { textDocument: { uri: ctx.raw.uri(file) }, position: ctx.raw.lspPosition(file, declared!.selection) });
  return { source: 'hover', text: hover ? hoverText(hover.contents) : '' };
}
