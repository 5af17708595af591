import type { CallHierarchyIncomingCall, CallHierarchyItem, CallHierarchyOutgoingCall, Location, Position, Range } from 'vscode-languageserver-protocol';
import { isWithin, UserError, uriToPath } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import type { ReadyDocument } from '../project/documentQuery.js';
import { openChangedFiles, requestLocations } from '../project/freshAnswer.js';
import { PositionMapper } from '../output/locations.js';
import { CALLABLE_KINDS, containerName, enclosingSymbol, symbolNamedAt, TYPE_KINDS, type SymbolNode, type SymbolTrees } from '../symbols/symbolTree.js';
import { symbolKindName } from '../symbols/symbolKinds.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

export type CallDirection = 'incoming' | 'outgoing';

export interface CallSite {
  file: string;
  line: number;
  column: number;
}

export interface CallEntry {
  direction: CallDirection;
  /** 1: calls the symbol directly (or is called by it); 2: calls a level-1 caller; … */
  level: number;
  name: string;
  kind: string;
  container?: string | undefined;
  file: string;
  line: number;
  column: number;
  /** The level-(n-1) entry this one calls (incoming) or is called by (outgoing). */
  via?: string | undefined;
  call_sites: CallSite[];
}

export interface CallGraph {
  symbol: { name: string; kind: string; file: string; line: number; column: number };
  calls: CallEntry[];
  /** Set when incoming callers were derived from references, not from the server's call hierarchy. */
  derived_from?: 'references' | undefined;
  notes: string[];
}

interface Node {
  uri: string;
  position: Position;
  name: string;
  item?: CallHierarchyItem;
}

const MAX_DEPTH = 4;

function key(uri: string, p: Position): string {
  return `${uri}#${p.line}:${p.character}`;
}

/**
 * The callers and callees of the symbol at a position, `depth` levels out. Uses the server's call
 * hierarchy where it has one; incoming callers are derived from references and document symbols
 * when it has none, or when it finds no call to a symbol that does have references.
 */
export async function callGraph(
  ctx: ToolContext,
  doc: ReadyDocument,
  position: Position,
  directions: readonly CallDirection[],
  depth: number,
  trees: SymbolTrees,
): Promise<CallGraph> {
  const { conn, uri } = doc.handle;
  const mapper = new PositionMapper(ctx.workspace, conn);
  const levels = Math.min(Math.max(depth, 1), MAX_DEPTH);
  const notes: string[] = [];
  const items = await prepare(ctx, conn, uri, position);
  const tree = await trees.of(uri);
  const named = symbolNamedAt(tree, position);
  const first = items[0];
  const symbol = first
    ? { name: first.name, kind: symbolKindName(first.kind), ...site(mapper, first.uri, first.selectionRange) }
    : named
      ? { name: named.name, kind: symbolKindName(named.kind), ...site(mapper, uri, named.selectionRange) }
      : undefined;
  const origin: Node = first
    ? { uri: first.uri, position: first.selectionRange.start, name: first.name, item: first }
    : { uri, position: named?.selectionRange.start ?? position, name: named?.name ?? '?' };

  const calls: CallEntry[] = [];
  let derived = false;
  if (directions.includes('incoming')) {
    let incoming = first ? await nativeCalls(ctx, conn, mapper, trees, items, 'incoming', levels) : undefined;
    if (!incoming || incoming.length === 0) {
      const refs = await referencesOutside(ctx, conn, origin, symbol === undefined ? position : origin.position);
      if (!symbol && refs.length === 0) throw noSymbol(doc, position, mapper);
      if (refs.length > 0 || !incoming) {
        notes.push(
          incoming
            ? `${conn.server.displayName} reported no calls, but the symbol has ${refs.length} reference(s): callers derived from references (imports and other non-call uses included).`
            : `${conn.server.displayName} has no call hierarchy here: callers derived from references and the enclosing symbol of each.`,
        );
        incoming = await derivedCallers(ctx, conn, mapper, trees, origin, refs, levels);
        derived = true;
      }
    }
    calls.push(...incoming);
  }
  if (directions.includes('outgoing')) {
    if (!symbol) throw noSymbol(doc, position, mapper);
    const outgoing = first ? await nativeCalls(ctx, conn, mapper, trees, items, 'outgoing', levels) : undefined;
    if (outgoing) calls.push(...outgoing);
    else notes.push(`${conn.server.displayName} gave no call hierarchy for this symbol: outgoing calls are not available (find_references on the names inside it, or get_symbol_source, instead).`);
  }
  if (!symbol) throw noSymbol(doc, position, mapper);
  return { symbol, calls, ...(derived ? { derived_from: 'references' as const } : {}), notes };
}

function inRoots(ctx: ToolContext, uri: string): boolean {
  const path = uriToPath(uri);
  return path !== undefined && ctx.workspace.rootList.some((r) => isWithin(r, path));
}

/** Appends the sites not already listed (servers repeat a site once per overload). */
function addSites(list: CallSite[], sites: readonly CallSite[]): CallSite[] {
  for (const s of sites) if (!list.some((x) => x.file === s.file && x.line === s.line && x.column === s.column)) list.push(s);
  return list;
}

function site(mapper: PositionMapper, uri: string, range: Range): { file: string; line: number; column: number } {
  const l = mapper.location(uri, range);
  return { file: l.file, line: l.line, column: l.column };
}

function noSymbol(doc: ReadyDocument, position: Position, mapper: PositionMapper): UserError {
  const at = mapper.range(doc.handle.uri, { start: position, end: position });
  return new UserError(
    'invalid_position',
    `No function, method or class at ${doc.label}:${at.line}:${at.column} (whitespace, a keyword or a literal?). Put the position on a symbol's name, e.g. position_pattern "def @@name" or "function @@name".`,
  );
}

async function prepare(ctx: ToolContext, conn: LspConnection, uri: string, position: Position): Promise<CallHierarchyItem[]> {
  if (!conn.supports('textDocument/prepareCallHierarchy')) return [];
  try {
    return (await ctx.workspace.query<CallHierarchyItem[] | null>(conn, 'textDocument/prepareCallHierarchy', { textDocument: { uri }, position }, ctx.signal)) ?? [];
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    // A server that registered the capability but fails on this symbol (clangd on some macros).
    return [];
  }
}

/**
 * Breadth-first over the server's call hierarchy. undefined when the server refuses the request
 * (clangd before 20 has no outgoing calls), so the caller can say so instead of answering "none".
 */
async function nativeCalls(
  ctx: ToolContext,
  conn: LspConnection,
  mapper: PositionMapper,
  trees: SymbolTrees,
  roots: readonly CallHierarchyItem[],
  direction: CallDirection,
  levels: number,
): Promise<CallEntry[] | undefined> {
  const method = direction === 'incoming' ? 'callHierarchy/incomingCalls' : 'callHierarchy/outgoingCalls';
  // Expanded once each, so cycles end; listed once each, the start symbol included: a recursive
  // function is its own caller (and callee), at the level it is first met.
  const expanded = new Set(roots.map((r) => key(r.uri, r.selectionRange.start)));
  const byKey = new Map<string, CallEntry>();
  let frontier = [...roots];
  for (let level = 1; level <= levels && frontier.length > 0; level++) {
    const next: CallHierarchyItem[] = [];
    // A level's requests go out together (asked one after another, depth 2 of Django's reverse()
    // took 28 s warm), and the files of the items they name are read together; the answers are
    // then read in the frontier's order, so the graph is the one a walk one request at a time builds.
    const answers = await inBatches(frontier, (item) => settled(freshCalls(ctx, conn, method, item)));
    await inBatches([...new Set(answers.flatMap((a) => ('value' in a ? (a.value ?? []) : []).map((call) => ('from' in call ? call.from.uri : call.to.uri))))], (uri) => trees.of(uri).catch(() => []));
    for (const [i, item] of frontier.entries()) {
      const outcome = answers[i]!;
      if ('error' in outcome) {
        if (ctx.signal.aborted) throw outcome.error;
        if (level === 1 && byKey.size === 0) return undefined;
        continue;
      }
      for (const call of outcome.value ?? []) {
        const target = 'from' in call ? call.from : call.to;
        // Incoming: the sites are in the caller; outgoing: in the item being expanded.
        const sitesUri = 'from' in call ? call.from.uri : item.uri;
        // Overloads outside the workspace (typeshed's, lib.d.ts's) are one callee to the agent.
        const k = inRoots(ctx, target.uri) ? key(target.uri, target.selectionRange.start) : `${target.uri}#${target.name}`;
        const sites = call.fromRanges.map((r) => site(mapper, sitesUri, r));
        const existing = byKey.get(k);
        if (existing) {
          if (existing.level === level) addSites(existing.call_sites, sites);
          continue;
        }
        const container = await containerOf(trees, target);
        const entry: CallEntry = { direction, level, name: target.name, kind: symbolKindName(target.kind), ...site(mapper, target.uri, target.selectionRange), call_sites: addSites([], sites) };
        if (container) entry.container = container;
        if (level > 1) entry.via = item.name;
        byKey.set(k, entry);
        if (expanded.has(k)) continue;
        expanded.add(k);
        next.push(target);
      }
    }
    frontier = next;
  }
  return [...byKey.values()];
}

/** Requests in flight at once: the broker admits 4 per client (fair queuing); a few more keep its queue fed. */
const REQUESTS_AT_ONCE = 8;

/** `fn` over every item, REQUESTS_AT_ONCE at a time; the results in the items' order. */
async function inBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let nextIndex = 0;
  const worker = async () => {
    for (let i = nextIndex++; i < items.length; i = nextIndex++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(REQUESTS_AT_ONCE, items.length) }, worker));
  return out;
}

const settled = <T>(p: Promise<T>): Promise<{ value: T } | { error: unknown }> => p.then((value) => ({ value }), (error: unknown) => ({ error }));

/**
 * A call-hierarchy request answered on the disk as it is now (as requestLocations does for
 * locations): files it names that changed since the server saw them are opened and it is asked again.
 */
async function freshCalls(ctx: ToolContext, conn: LspConnection, method: string, item: CallHierarchyItem): Promise<(CallHierarchyIncomingCall | CallHierarchyOutgoingCall)[] | null> {
  type Answer = (CallHierarchyIncomingCall | CallHierarchyOutgoingCall)[] | null;
  // Opening a file moves the workspace epoch: the second request is never answered from the cache.
  const first = await ctx.workspace.query<Answer>(conn, method, { item }, ctx.signal);
  const uris = [...new Set((first ?? []).map((c) => ('from' in c ? c.from.uri : c.to.uri)))];
  if ((await openChangedFiles(conn, ctx.workspace.registry, uris, ctx.signal)) === 0) return first;
  return ctx.workspace.query<Answer>(conn, method, { item }, ctx.signal);
}

/** The container of an item: from its file's document symbols (servers' `detail` differs too much). */
async function containerOf(trees: SymbolTrees, item: CallHierarchyItem): Promise<string | undefined> {
  const tree = await trees.of(item.uri).catch(() => []);
  const node = symbolNamedAt(tree, item.selectionRange.start);
  return node ? containerName(node) : undefined;
}

/** References to the symbol, without its declaration. */
async function referencesOutside(ctx: ToolContext, conn: LspConnection, origin: Node, position: Position): Promise<Location[]> {
  if (!conn.supports('textDocument/references')) return [];
  const params = { textDocument: { uri: origin.uri }, position, context: { includeDeclaration: false } };
  const result = (await requestLocations(conn, ctx.workspace.registry, 'textDocument/references', params, ctx.signal)) as Location[] | null;
  return (result ?? []).filter((l) => !(l.uri === origin.uri && l.range.start.line === origin.position.line && l.range.start.character === origin.position.character));
}

/** What a reference is "inside": the innermost function or method, else the type, else the module. */
export function userOf(tree: readonly SymbolNode[], p: Position): SymbolNode | undefined {
  return enclosingSymbol(tree, p, (s) => CALLABLE_KINDS.has(s.kind)) ?? enclosingSymbol(tree, p, (s) => TYPE_KINDS.has(s.kind));
}

async function derivedCallers(
  ctx: ToolContext,
  conn: LspConnection,
  mapper: PositionMapper,
  trees: SymbolTrees,
  origin: Node,
  firstRefs: Location[],
  levels: number,
): Promise<CallEntry[]> {
  const out: CallEntry[] = [];
  // As in nativeCalls: the origin is listed when it uses itself (recursion), but expanded only once.
  const listed = new Set<string>();
  const expanded = new Set([key(origin.uri, origin.position)]);
  let frontier: { node: Node; refs: Location[] }[] = [{ node: origin, refs: firstRefs }];
  for (let level = 1; level <= levels && frontier.length > 0; level++) {
    const next: { node: Node; refs: Location[] }[] = [];
    for (const { node, refs } of frontier) {
      const byUser = new Map<string, { entry: CallEntry; node?: Node }>();
      for (const ref of refs) {
        const tree = await trees.of(ref.uri);
        const user = userOf(tree, ref.range.start);
        const at = user ? user.selectionRange : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
        const k = key(ref.uri, at.start);
        let group = byUser.get(k);
        if (!group) {
          const entry: CallEntry = {
            direction: 'incoming',
            level,
            name: user?.name ?? '<module>',
            kind: user ? symbolKindName(user.kind) : 'module',
            container: user ? containerName(user) : undefined,
            ...site(mapper, ref.uri, at),
            call_sites: [],
          };
          if (!entry.container) delete entry.container;
          if (level > 1) entry.via = node.name;
          group = { entry, ...(user ? { node: { uri: ref.uri, position: user.selectionRange.start, name: user.name } } : {}) };
          byUser.set(k, group);
        }
        addSites(group.entry.call_sites, [site(mapper, ref.uri, ref.range)]);
      }
      for (const [k, group] of byUser) {
        if (listed.has(k)) continue;
        listed.add(k);
        out.push(group.entry);
        if (expanded.has(k)) continue;
        expanded.add(k);
        if (group.node && level < levels) next.push({ node: group.node, refs: await referencesOutside(ctx, conn, group.node, group.node.position) });
      }
    }
    frontier = next;
  }
  return out;
}
