import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { Location, Position, TypeHierarchyItem } from 'vscode-languageserver-protocol';
import { isWithin, UserError, uriToPath, SymbolKind } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import type { ReadyDocument } from '../project/documentQuery.js';
import { locationTargets, requestLocations } from '../project/freshAnswer.js';
import { PositionMapper } from '../output/locations.js';
import { symbolKindName } from '../symbols/symbolKinds.js';
import { contains, enclosingSymbol, TYPE_KINDS, type SymbolNode, type SymbolTrees } from '../symbols/symbolTree.js';
import type { ToolContext } from '../catalog/toolDefinition.js';
import { classHead, mayBeBase, offsetAt, positionAt } from './typeHeads.js';

export type TypeDirection = 'supertypes' | 'subtypes';

export interface TypeEntry {
  name: string;
  kind: string;
  file: string;
  line: number;
  column: number;
  /** 1 = direct base or subtype; 2 = through a level-1 entry (named in via); … */
  level: number;
  via?: string | undefined;
}

export interface TypeGraph {
  symbol: { name: string; kind: string; file: string; line: number; column: number };
  supertypes?: TypeEntry[] | undefined;
  subtypes?: TypeEntry[] | undefined;
  derived_from?: 'class_heads' | 'implementations' | undefined;
}

const MAX_LEVELS = 4;

interface TypeRef {
  uri: string;
  node: SymbolNode;
}

function key(uri: string, p: Position): string {
  return `${uri}#${p.line}:${p.character}`;
}

/** The type hierarchy around the type at a position: the server's where it has one, else derived from class heads. */
export async function typeGraph(ctx: ToolContext, doc: ReadyDocument, position: Position, directions: readonly TypeDirection[], trees: SymbolTrees): Promise<TypeGraph> {
  const { conn, uri } = doc.handle;
  const mapper = new PositionMapper(ctx.workspace, conn);
  const at = (u: string, p: Position) => {
    const l = mapper.location(u, { start: p, end: p });
    return { file: l.file, line: l.line, column: l.column };
  };
  if (conn.supports('textDocument/prepareTypeHierarchy')) {
    const items = await ctx.workspace.query<TypeHierarchyItem[] | null>(conn, 'textDocument/prepareTypeHierarchy', { textDocument: { uri }, position }, ctx.signal).catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      return null;
    });
    const first = items?.[0];
    if (first) {
      const out: TypeGraph = { symbol: { name: first.name, kind: symbolKindName(first.kind), ...at(first.uri, first.selectionRange.start) } };
      for (const d of directions) out[d] = await nativeLevels(ctx, conn, items ?? [], d, at);
      return out;
    }
  }
  const tree = await trees.of(uri);
  const node = enclosingSymbol(tree, position, (s) => TYPE_KINDS.has(s.kind));
  if (!node) {
    const p = at(uri, position);
    throw new UserError('invalid_position', `No class, interface or struct at ${doc.label}:${p.line}:${p.column}. Put the position on a type's name (e.g. position_pattern "class @@Name").`);
  }
  const origin = { uri, node };
  const symbol = { name: node.name, kind: symbolKindName(node.kind), ...at(uri, node.selectionRange.start) };
  if (extname(doc.handle.path) === '.go') {
    // Go types have no heads: an interface's subtypes are the types implementing it, a concrete
    // type's supertypes the interfaces it satisfies (gopls answers both as implementations).
    const out: TypeGraph = { symbol, derived_from: 'implementations' };
    const isInterface = node.kind === SymbolKind.Interface;
    const implementations = () => implementationsOf(ctx, conn, trees, origin);
    if (directions.includes('supertypes')) out.supertypes = isInterface ? [] : await derivedLevels(origin, implementations, at, 1);
    if (directions.includes('subtypes')) out.subtypes = isInterface ? await derivedLevels(origin, implementations, at, 1) : [];
    return out;
  }
  const out: TypeGraph = { symbol, derived_from: 'class_heads' };
  if (directions.includes('supertypes')) out.supertypes = await derivedLevels(origin, (t) => basesOf(ctx, conn, trees, t), at);
  if (directions.includes('subtypes')) out.subtypes = await derivedLevels(origin, (t) => subtypesOf(ctx, conn, trees, t), at);
  return out;
}

async function nativeLevels(
  ctx: ToolContext,
  conn: LspConnection,
  roots: readonly TypeHierarchyItem[],
  direction: TypeDirection,
  at: (uri: string, p: Position) => { file: string; line: number; column: number },
): Promise<TypeEntry[]> {
  const seen = new Set(roots.map((r) => key(r.uri, r.selectionRange.start)));
  const out: TypeEntry[] = [];
  let frontier = [...roots];
  for (let level = 1; level <= MAX_LEVELS && frontier.length > 0; level++) {
    const next: TypeHierarchyItem[] = [];
    for (const item of frontier) {
      const answer = await ctx.workspace.query<TypeHierarchyItem[] | null>(conn, `typeHierarchy/${direction}`, { item }, ctx.signal);
      for (const t of answer ?? []) {
        const k = key(t.uri, t.selectionRange.start);
        if (seen.has(k)) continue;
        seen.add(k);
        out.push({ name: t.name, kind: symbolKindName(t.kind), ...at(t.uri, t.selectionRange.start), level, ...(level > 1 ? { via: item.name } : {}) });
        next.push(t);
      }
    }
    frontier = next;
  }
  return out;
}

/** A related type found by reading code: a type in the workspace (expanded further), or outside it (named only). */
type Related = { ref: TypeRef } | { outside: { name: string; uri: string; position: Position } };

async function derivedLevels(
  origin: TypeRef,
  related: (t: TypeRef) => Promise<Related[]>,
  at: (uri: string, p: Position) => { file: string; line: number; column: number },
  maxLevels = MAX_LEVELS,
): Promise<TypeEntry[]> {
  const seen = new Set([key(origin.uri, origin.node.selectionRange.start)]);
  const out: TypeEntry[] = [];
  let frontier = [origin];
  for (let level = 1; level <= maxLevels && frontier.length > 0; level++) {
    const next: TypeRef[] = [];
    for (const t of frontier) {
      for (const r of await related(t)) {
        const via = level > 1 ? { via: t.node.name } : {};
        if ('outside' in r) {
          const k = key(r.outside.uri, r.outside.position);
          if (seen.has(k)) continue;
          seen.add(k);
          out.push({ name: r.outside.name, kind: 'class', ...at(r.outside.uri, r.outside.position), level, ...via });
          continue;
        }
        const k = key(r.ref.uri, r.ref.node.selectionRange.start);
        if (seen.has(k)) continue;
        seen.add(k);
        out.push({ name: r.ref.node.name, kind: symbolKindName(r.ref.node.kind), ...at(r.ref.uri, r.ref.node.selectionRange.start), level, ...via });
        next.push(r.ref);
      }
    }
    frontier = next;
  }
  return out;
}

function isPython(uri: string): boolean {
  const ext = extname(uriToPath(uri) ?? '');
  return ext === '.py' || ext === '.pyi';
}

function textOf(conn: LspConnection, uri: string): string | undefined {
  return conn.documents.get(uri)?.text;
}

function inRoots(ctx: ToolContext, uri: string): boolean {
  const path = uriToPath(uri);
  return path !== undefined && ctx.workspace.rootList.some((r) => isWithin(r, path));
}

/** Each base named in the type's head, resolved by go-to-definition to the type it names. */
async function basesOf(ctx: ToolContext, conn: LspConnection, trees: SymbolTrees, t: TypeRef): Promise<Related[]> {
  await trees.of(t.uri); // opens the file, so its text is at hand
  const text = textOf(conn, t.uri);
  if (!text) return [];
  const head = classHead(text, t.node.selectionRange.end, isPython(t.uri));
  const out: Related[] = [];
  for (const base of head.bases) {
    const position = positionAt(text, base.offset);
    const defs = (await requestLocations(conn, ctx.workspace.registry, 'textDocument/definition', { textDocument: { uri: t.uri }, position }, ctx.signal));
    for (const { uri, range } of locationTargets(defs)) {
      const node = inRoots(ctx, uri) ? enclosingSymbol(await trees.of(uri), range.start, (s) => TYPE_KINDS.has(s.kind) && contains(s.selectionRange, range.start)) : undefined;
      out.push(node ? { ref: { uri, node } } : { outside: { name: base.name, uri, position: range.start } });
    }
  }
  return out;
}

/**
 * Types that name this one as a base: references to it that are one of the bases of another type's
 * head. A use inside a head that is not a base (`extends Fn<Observable<T>>`, `class Box<T extends
 * Observable>`) makes no subtype.
 */
async function subtypesOf(ctx: ToolContext, conn: LspConnection, trees: SymbolTrees, t: TypeRef): Promise<Related[]> {
  const params = { textDocument: { uri: t.uri }, position: t.node.selectionRange.start, context: { includeDeclaration: false } };
  const refs = ((await requestLocations(conn, ctx.workspace.registry, 'textDocument/references', params, ctx.signal)) as Location[] | null) ?? [];
  const out: Related[] = [];
  const texts = new Map<string, Promise<string | undefined>>();
  for (const ref of refs) {
    const path = uriToPath(ref.uri);
    // Set aside what cannot be a base before asking for the file's symbols (Observable has
    // thousands of uses in 168 files of rxjs, 14 of which name it after extends, implements or a comma).
    if (path !== undefined && !texts.has(path)) texts.set(path, readFile(path, 'utf8').catch(() => undefined));
    const disk = path === undefined ? undefined : await texts.get(path);
    if (disk !== undefined && !mayBeBase(disk, offsetAt(disk, ref.range.start), extname(path ?? '').toLowerCase())) continue;
    const tree = await trees.of(ref.uri);
    const text = textOf(conn, ref.uri);
    if (!text) continue;
    const holder = enclosingSymbol(tree, ref.range.start, (s) => TYPE_KINDS.has(s.kind));
    if (!holder || holder === t.node) continue;
    const head = classHead(text, holder.selectionRange.end, isPython(ref.uri));
    const at = offsetAt(text, ref.range.start);
    if (head.bases.some((b) => b.offset === at)) out.push({ ref: { uri: ref.uri, node: holder } });
  }
  return out;
}

/** The types the server names as implementations of `t` (Go: implementing types, or satisfied interfaces). */
async function implementationsOf(ctx: ToolContext, conn: LspConnection, trees: SymbolTrees, t: TypeRef): Promise<Related[]> {
  if (!conn.supports('textDocument/implementation')) return [];
  const params = { textDocument: { uri: t.uri }, position: t.node.selectionRange.start };
  const result = (await requestLocations(conn, ctx.workspace.registry, 'textDocument/implementation', params, ctx.signal));
  const out: Related[] = [];
  for (const { uri, range } of locationTargets(result)) {
    if (!inRoots(ctx, uri)) {
      const text = conn.documents.get(uri)?.text;
      out.push({ outside: { name: text ? wordAt(text, range.start) : '?', uri, position: range.start } });
      continue;
    }
    const node = enclosingSymbol(await trees.of(uri), range.start, (s) => TYPE_KINDS.has(s.kind) && contains(s.selectionRange, range.start));
    if (node && node !== t.node) out.push({ ref: { uri, node } });
  }
  return out;
}

function wordAt(text: string, p: Position): string {
  const line = text.split('\n')[p.line] ?? '';
  return /^[\w$]+/.exec(line.slice(p.character))?.[0] ?? '?';
}
