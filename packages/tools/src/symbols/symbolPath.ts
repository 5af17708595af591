import type { DocumentSymbol, Position, Range, SymbolInformation } from 'vscode-languageserver-protocol';

/**
 * Symbol paths (`Class.method`, `outer.inner`, `module.function`, `pkg/file.ts:Namespace.fn`)
 * resolved against a file's document symbols. Pure: LSP coordinates (0-based lines, UTF-16).
 */

/** One symbol of a file, in a tree whatever shape the server answered in. */
export interface SymbolNode {
  name: string;
  kind: number;
  detail?: string | undefined;
  range: Range;
  selectionRange: Range;
  children: SymbolNode[];
  parent?: SymbolNode | undefined;
}

export interface ParsedSymbolPath {
  /** The file part of `file:Path`, when given. */
  file?: string | undefined;
  segments: string[];
}

function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

function contains(outer: Range, inner: Range): boolean {
  return comparePositions(outer.start, inner.start) <= 0 && comparePositions(inner.end, outer.end) <= 0;
}

/** Go names methods `(*Rect).Area` or `(Rect).Area`: the receiver becomes the container. */
function splitReceiver(name: string): { receiver?: string; name: string } {
  const m = /^\(\*?([A-Za-z_][\w]*)(?:\[[^\]]*\])?\)\.(.+)$/.exec(name);
  return m ? { receiver: m[1], name: m[2] as string } : { name };
}

function fromDocumentSymbol(s: DocumentSymbol, parent: SymbolNode | undefined): SymbolNode {
  const node: SymbolNode = { name: s.name, kind: s.kind, detail: s.detail, range: s.range, selectionRange: s.selectionRange, children: [], parent };
  node.children = (s.children ?? []).map((c) => fromDocumentSymbol(c, node));
  return node;
}

/** Places each flat symbol under the innermost earlier one whose range holds it. */
function nestByRange(flat: SymbolNode[]): SymbolNode[] {
  const sorted = [...flat].sort((a, b) => comparePositions(a.range.start, b.range.start) || comparePositions(b.range.end, a.range.end));
  const roots: SymbolNode[] = [];
  const stack: SymbolNode[] = [];
  for (const node of sorted) {
    while (stack.length > 0 && !contains((stack[stack.length - 1] as SymbolNode).range, node.range)) stack.pop();
    const parent = stack[stack.length - 1];
    node.parent = parent;
    (parent ? parent.children : roots).push(node);
    stack.push(node);
  }
  return roots;
}

/** Turns go-style receiver names into members of their type (when the type is in the file). */
function adoptReceivers(roots: SymbolNode[]): SymbolNode[] {
  const out: SymbolNode[] = [];
  for (const node of roots) {
    const { receiver, name } = splitReceiver(node.name);
    const owner = receiver ? roots.find((r) => r.name === receiver) : undefined;
    if (receiver) node.name = name;
    if (owner) {
      node.parent = owner;
      owner.children.push(node);
    } else {
      out.push(node);
    }
  }
  return out;
}

/** DocumentSymbol[] or SymbolInformation[] as one tree. */
export function symbolTree(result: readonly (DocumentSymbol | SymbolInformation)[] | null | undefined): SymbolNode[] {
  const list = result ?? [];
  if (list.length === 0) return [];
  if ('location' in (list[0] as object)) {
    const flat = (list as SymbolInformation[]).map((s): SymbolNode => ({ name: s.name, kind: s.kind, range: s.location.range, selectionRange: s.location.range, children: [] }));
    return adoptReceivers(nestByRange(flat));
  }
  return adoptReceivers((list as DocumentSymbol[]).map((s) => fromDocumentSymbol(s, undefined)));
}

/** Every node, depth first. */
export function allSymbols(roots: readonly SymbolNode[]): SymbolNode[] {
  const out: SymbolNode[] = [];
  const walk = (nodes: readonly SymbolNode[]) => {
    for (const n of nodes) {
      out.push(n);
      walk(n.children);
    }
  };
  walk(roots);
  return out;
}

export function qualifiedName(node: SymbolNode): string {
  const names: string[] = [];
  for (let n: SymbolNode | undefined = node; n; n = n.parent) names.unshift(n.name);
  return names.join('.');
}

/** `src/a.ts:A.b` → file and segments; `A::b` (C++) and `A.b` alike. */
export function parseSymbolPath(input: string): ParsedSymbolPath {
  const trimmed = input.trim();
  const m = /^(.*?\.[A-Za-z0-9]+):(?!:)(.+)$/.exec(trimmed);
  const file = m ? m[1] : undefined;
  const path = m ? (m[2] as string) : trimmed;
  const segments = path.split(/::|\./).map((s) => s.trim()).filter((s) => s.length > 0);
  return { file, segments };
}

/** How well a node matches: 0 the whole path from the top (or after the module name), 1 its tail only. */
export interface SymbolMatch {
  node: SymbolNode;
  rank: 0 | 1;
}

/** The names from the top down to `node`; clangd's out-of-line `Widget::draw` counts as two. */
function ancestry(node: SymbolNode): string[] {
  const names: string[] = [];
  for (let n: SymbolNode | undefined = node; n; n = n.parent) names.unshift(...n.name.split('::'));
  return names;
}

/** Compares a symbol name with a path segment: `constructor` and Go's `(T).M` spelled either way. */
function sameName(name: string, segment: string): boolean {
  return name === segment || splitReceiver(name).name === segment;
}

/**
 * The symbols a path names in one file. `modulePrefixes` are the dotted names the file is known by
 * (`app.geometry`, `geometry`): a path may start with one of them. Matches of the whole path
 * (rank 0) come before those whose containers merely end the same way (rank 1).
 */
export function resolveSymbolPath(roots: readonly SymbolNode[], segments: readonly string[], modulePrefixes: readonly string[] = []): SymbolMatch[] {
  if (segments.length === 0) return [];
  const variants: string[][] = [[...segments]];
  for (const prefix of modulePrefixes) {
    const p = prefix.split('.').filter(Boolean);
    if (p.length > 0 && p.length < segments.length && p.every((s, i) => segments[i] === s)) variants.push(segments.slice(p.length));
  }
  const matches: SymbolMatch[] = [];
  for (const node of allSymbols(roots)) {
    const names = ancestry(node);
    let best: 0 | 1 | undefined;
    for (const v of variants) {
      if (v.length > names.length) continue;
      const tail = names.slice(names.length - v.length);
      if (!tail.every((n, i) => sameName(n, v[i] as string))) continue;
      const rank = v.length === names.length ? 0 : 1;
      if (best === undefined || rank < best) best = rank;
    }
    if (best !== undefined) matches.push({ node, rank: best });
  }
  const exact = matches.filter((m) => m.rank === 0);
  return exact.length > 0 ? exact : matches;
}

/** Edit distance, for naming close matches of a path that resolves to nothing. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min(cur + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] as number;
}

/** Up to `max` qualified names of symbols close to the path (last segment first, then the whole path). */
export function closeMatches(roots: readonly SymbolNode[], segments: readonly string[], max = 5): string[] {
  const last = (segments[segments.length - 1] ?? '').toLowerCase();
  const whole = segments.join('.').toLowerCase();
  const scored = allSymbols(roots).map((n) => {
    const q = qualifiedName(n);
    const name = n.name.toLowerCase();
    const nameScore = name.includes(last) || last.includes(name) ? 0 : distance(name, last);
    return { q, score: Math.min(nameScore, distance(q.toLowerCase(), whole)) };
  });
  const limit = Math.max(2, Math.floor(last.length / 2));
  return [...new Set(scored.filter((s) => s.score <= limit).sort((a, b) => a.score - b.score || a.q.length - b.q.length).map((s) => s.q))].slice(0, max);
}

/**
 * The innermost symbol whose range holds the position. Every node is looked at, not only the
 * children of one that holds it: a Go method adopted by its receiver type (adoptReceivers) lies
 * outside the type's range.
 */
export function innermostAt(roots: readonly SymbolNode[], p: Position): SymbolNode | undefined {
  let found: SymbolNode | undefined;
  const at = { start: p, end: p };
  const visit = (nodes: readonly SymbolNode[]): void => {
    for (const n of nodes) {
      // A later node that holds the position inside the one found so far is more inner.
      if (contains(n.range, at) && (!found || contains(found.range, n.range))) found = n;
      visit(n.children);
    }
  };
  visit(roots);
  return found;
}

/** The dotted names a file is known by as a module: `app/geometry.py` → `app.geometry`, `geometry`. */
export function modulePrefixes(relativePath: string): string[] {
  const parts = relativePath.replace(/\\/g, '/').split('/').filter((p) => p && p !== '.' && p !== '..');
  const file = parts.pop() ?? '';
  const stem = file.replace(/\.[^.]+$/, '');
  const dirs = parts;
  const names = stem === '__init__' || stem === 'index' ? dirs : [...dirs, stem];
  const out: string[] = [];
  for (let i = 0; i < names.length; i++) out.push(names.slice(i).join('.'));
  // Go: the package is the directory; its files' symbols are `pkg.Symbol`.
  if (dirs.length > 0 && stem !== dirs[dirs.length - 1]) out.push(dirs[dirs.length - 1] as string);
  return [...new Set(out)];
}
