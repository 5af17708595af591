// Field cases of the tools that answer several questions in one call: explore_symbol (hover,
// definitions, implementations, callers and references of the symbol at a position) and
// get_editing_context (a file's outline, imports, uses from other files and outgoing calls). Each
// part against the same server asked directly, the imports against the language's own parser
// (TypeScript's, Python's ast) or its syntax (Go's import declarations, C's #include lines); the
// parts compared as one set, each entry named by its part.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { ok } from '../helpers/mcpClient.js';
import { compareSets, type Outcome } from './fieldOutcome.js';
import { claimsComplete, cursor, describeTarget, hoverText, locationKeys, type FieldContext, type FieldSpec, type Target } from './fieldSuite.js';
import type { FieldLocation, LspRange, RawServer } from './rawServer.js';

type Recorder = (tool: string, label: string, result: { outcome: Outcome; detail?: string }) => void;

interface RawItem {
  name: string;
  kind: number;
  uri: string;
  range: LspRange;
  selectionRange: LspRange;
  children?: RawItem[];
}

/** Class, interface, struct, enum: get_editing_context outlines their members too. */
const TYPE_KINDS = new Set([5, 10, 11, 23]);
/** Function, method, constructor: the symbols whose outgoing calls it lists. */
const CALLABLE_KINDS = new Set([6, 9, 12]);

/** The server's incoming calls of the symbol at a position: `caller file sites`. */
async function incomingCalls(raw: RawServer, root: string, rel: string, position: { line: number; character: number }): Promise<string[]> {
  // gopls refuses a type ("Node is not a function"): no call hierarchy there.
  const items = (await raw.request<RawItem[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri: raw.uri(rel) }, position }).catch(() => null)) ?? [];
  if (!items[0]) return [];
  const calls = (await raw.request<{ from: RawItem; fromRanges: LspRange[] }[] | null>('callHierarchy/incomingCalls', { item: items[0] })) ?? [];
  return calls.map((c) => {
    const [file] = locationKeys(root, [raw.location(c.from.uri, c.from.selectionRange)]);
    const sites = c.fromRanges.map((r) => raw.location(c.from.uri, r)).map((l) => `${l.line}:${l.column}`).sort();
    return `caller ${c.from.name} ${file!.replace(/:.*$/, '')} ${sites.join(' ')}`;
  });
}

/** A file's import statements' first lines, as the language reads them. */
function importLines(root: string, rel: string, languageId: string): number[] {
  const text = readFileSync(join(root, rel), 'utf8');
  if (languageId === 'typescript') {
    const source = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
    const imports = source.statements.filter((s) => ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s) || (ts.isExportDeclaration(s) && s.moduleSpecifier !== undefined));
    return imports.map((s) => source.getLineAndCharacterOfPosition(s.getStart(source)).line + 1);
  }
  if (languageId === 'python') {
    const script = 'import ast, sys\nfor n in ast.walk(ast.parse(open(sys.argv[1], encoding="utf-8").read())):\n    if isinstance(n, (ast.Import, ast.ImportFrom)): print(n.lineno)';
    return execFileSync('python3', ['-c', script, join(root, rel)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number).sort((a, b) => a - b);
  }
  const lines = text.split(/\r?\n/);
  if (languageId === 'go') {
    // Each import spec: a single `import "x"`, or each line of an `import ( … )` block.
    const out: number[] = [];
    let block = false;
    lines.forEach((l, i) => {
      if (/^import\s*\($/.test(l)) block = true;
      else if (block && l.startsWith(')')) block = false;
      else if ((block && l.trim() !== '' && !l.trim().startsWith('//')) || /^import\s+(\w+\s+)?"/.test(l)) out.push(i + 1);
    });
    return out;
  }
  return lines.flatMap((l, i) => (/^\s*#\s*include\b/.test(l) ? [i + 1] : []));
}

export function compositeCases(ctx: FieldContext, spec: FieldSpec, record: Recorder): void {
  const root = () => ctx.corpus.root;

  it.each(spec.explore ?? [])('explore_symbol at $file "$needle" is the server\'s own hover, definitions, implementations, callers and references', async (target: Target) => {
    const at = cursor(root(), target);
    const position = ctx.raw.lspPosition(target.file, at);
    const params = { textDocument: { uri: ctx.raw.uri(target.file) }, position };
    const hover = await ctx.raw.request<{ contents: unknown } | null>('textDocument/hover', params);
    const keys = (part: string, locations: readonly FieldLocation[]) => locationKeys(root(), locations).map((k) => `${part} ${k}`);
    const truth = [
      ...(hover ? [`hover ${hoverText(hover.contents)}`] : []),
      ...keys('definition', await ctx.raw.locations('textDocument/definition', target.file, at)),
      // gopls refuses implementations of a function ("not a method"): there are none.
      ...(ctx.raw.capabilities['implementationProvider'] ? keys('implementation', await ctx.raw.locations('textDocument/implementation', target.file, at).catch(() => [])) : []),
      ...keys('reference', await ctx.raw.locations('textDocument/references', target.file, at, { context: { includeDeclaration: false } })),
      ...(await incomingCalls(ctx.raw, root(), target.file, position)),
    ];
    expect(truth.some((k) => k.startsWith('reference ')), 'the symbol is used').toBe(true);
    const data = ok(await ctx.agent.call('explore_symbol', { file_path: target.file, ...at, reference_limit: 100_000 }));
    const callers = (data['callers'] as { name: string; file: string; call_sites: { line: number; column: number }[] }[] | undefined) ?? [];
    // Where the server has no call hierarchy (a type), the callers are derived from the references,
    // and say so: each of their sites must be a reference; the server has no callers to compare.
    const derived = data['callers_derived_from'] === 'references';
    if (derived) {
      const references = new Set(truth.filter((k) => k.startsWith('reference ')).map((k) => k.replace(/^reference (.*:\d+:\d+)-\d+:\d+$/, '$1')));
      for (const c of callers) for (const s of c.call_sites) expect(references, `${c.name}'s site ${c.file}:${s.line}:${s.column} is a reference`).toContain(`${c.file}:${s.line}:${s.column}`);
    }
    const calls = derived ? [] : callers;
    const ours = [
      ...(typeof data['hover'] === 'string' ? [`hover ${hoverText(data['hover'])}`] : []),
      ...keys('definition', (data['definitions'] as FieldLocation[] | undefined) ?? []),
      ...keys('implementation', (data['implementations'] as FieldLocation[] | undefined) ?? []),
      ...keys('reference', (data['references'] as FieldLocation[] | undefined) ?? []),
      ...calls.map((c) => `caller ${c.name} ${c.file} ${c.call_sites.map((s) => `${s.line}:${s.column}`).sort().join(' ')}`),
    ];
    record('explore_symbol', describeTarget(target), compareSets(ours, truth, claimsComplete(data)));
  });

  it.each(spec.editingContext ?? [])('get_editing_context of %s is the server\'s outline, uses and calls, and the language\'s imports', async (file) => {
    await ctx.raw.open(file, spec.languageId);
    const uri = ctx.raw.uri(file);
    const top = (await ctx.raw.request<RawItem[] | null>('textDocument/documentSymbol', { textDocument: { uri } })) ?? [];
    const truth: string[] = importLines(root(), file, spec.languageId).map((l) => `import ${l}`);
    const callables: RawItem[] = [];
    for (const s of top) {
      const members = TYPE_KINDS.has(s.kind) ? (s.children ?? []) : [];
      for (const [node, container] of [[s, ''], ...members.map((m) => [m, s.name] as const)] as const) {
        const l = ctx.raw.location(uri, node.range);
        truth.push(`outline ${container ? `${container}.` : ''}${node.name} ${l.line}-${l.end_line}`);
        if (CALLABLE_KINDS.has(node.kind)) callables.push(node);
      }
      const uses = await ctx.raw.request<{ uri: string; range: LspRange }[] | null>('textDocument/references', { textDocument: { uri }, position: s.selectionRange.start, context: { includeDeclaration: false } });
      for (const u of uses ?? []) if (u.uri !== uri) truth.push(`use of ${s.name} ${locationKeys(root(), [ctx.raw.location(u.uri, u.range)])[0]!.replace(/-\d+:\d+$/, '')}`);
    }
    // One callee per caller, name and file (overloads are one to an agent): the first the server lists.
    const calls = new Map<string, string>();
    for (const fn of callables) {
      // gopls refuses a function type (`type inspector func…`), clangd 14 has no outgoing calls: none listed.
      const [item] = (await ctx.raw.request<RawItem[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: fn.selectionRange.start }).catch(() => null)) ?? [];
      const out = item ? ((await ctx.raw.request<{ to: RawItem }[] | null>('callHierarchy/outgoingCalls', { item }).catch(() => null)) ?? []) : [];
      for (const c of out) {
        const at = locationKeys(root(), [ctx.raw.location(c.to.uri, c.to.selectionRange)])[0]!.replace(/-\d+:\d+$/, '');
        const key = `${fn.name} > ${c.to.name} ${at.replace(/:.*$/, '')}`;
        if (!calls.has(key)) calls.set(key, `call ${fn.name} > ${c.to.name} ${at}`);
      }
    }
    truth.push(...calls.values());
    const data = ok(await ctx.agent.call('get_editing_context', { file_path: file }));
    const ours = [
      ...((data['imports'] as { line: number }[] | undefined) ?? []).map((i) => `import ${i.line}`),
      ...((data['outline'] as { name: string; container?: string; line: number; end_line: number }[] | undefined) ?? []).map((o) => `outline ${o.container ? `${o.container}.` : ''}${o.name} ${o.line}-${o.end_line}`),
      ...((data['callers'] as { symbol: string; file: string; line: number; column: number }[] | undefined) ?? []).map((c) => `use of ${c.symbol} ${c.file}:${c.line}:${c.column}`),
      ...((data['calls'] as { from: string; name: string; file: string; line: number; column: number }[] | undefined) ?? []).map((c) => `call ${c.from} > ${c.name} ${c.file}:${c.line}:${c.column}`),
    ];
    record('get_editing_context', file, compareSets(ours, truth, claimsComplete(data)));
  });
}
