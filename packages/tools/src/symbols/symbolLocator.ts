import { sep } from 'node:path';
import type { DocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import { isWithin, UserError, uriToPath } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument, type ReadyDocument } from '../project/documentQuery.js';
import { coverageNotReady, loadEveryProject, workspaceSymbols, type ProjectCoverage } from '../project/projectSeeds.js';
import { locationTargets, requestLocations } from '../project/freshAnswer.js';
import { awaitReady, type NotReadyResult, type ReadinessArgs } from '../project/readinessGate.js';
import { closeMatches, modulePrefixes, parseSymbolPath, qualifiedName, resolveSymbolPath, symbolTree, type ParsedSymbolPath, type SymbolNode } from './symbolPath.js';
import { symbolServers } from '../tools/symbols.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

/** One symbol a path may name. */
export interface SymbolCandidate {
  doc: ReadyDocument;
  node: SymbolNode;
  /** 0: the whole path matches from the top; 1: only its tail. */
  rank: number;
  qualified: string;
  label: string;
}

export async function documentSymbolTree(ctx: ToolContext, doc: ReadyDocument): Promise<SymbolNode[]> {
  const { conn, uri } = doc.handle;
  if (!conn.supports('textDocument/documentSymbol')) {
    throw new UserError('not_supported', `${conn.server.displayName} lists no document symbols, so symbol paths cannot be resolved in ${doc.label}. Use a position instead.`);
  }
  const result = await ctx.workspace.query<DocumentSymbol[] | SymbolInformation[] | null>(conn, 'textDocument/documentSymbol', { textDocument: { uri } }, ctx.signal);
  return symbolTree(result);
}

/** The symbols a path names in one already opened file. */
export async function candidatesInFile(ctx: ToolContext, doc: ReadyDocument, path: string): Promise<{ candidates: SymbolCandidate[]; near: string[] }> {
  const parsed = parseSymbolPath(path);
  const tree = await documentSymbolTree(ctx, doc);
  const matches = resolveSymbolPath(tree, parsed.segments, modulePrefixes(doc.label));
  const candidates = matches.map((m) => ({ doc, node: m.node, rank: m.rank, qualified: qualifiedName(m.node), label: doc.label }));
  return { candidates, near: candidates.length ? [] : closeMatches(tree, parsed.segments) };
}

/**
 * Files whose document symbols are examined for one path. Files whose index entry already has the
 * path's container (`Job` of `Job.run`) come first, so a common last name (`run`, `__init__`)
 * declared in hundreds of files does not push the one meant past the limit; files past it are
 * counted, and the answer says so.
 */
const MAX_FILES = 100;

/**
 * A file that declares the path's last name; with a container in the path, whether an index entry
 * there names it (`containerMatches`) or names none, so it still may (`mayMatch`: false only when
 * every entry names another container).
 */
interface DeclaringFile {
  path: string;
  containerMatches: boolean;
  mayMatch: boolean;
}

/** Whether a directory or the file itself (without extension) on `path` is named `name`. */
function inModuleNamed(path: string, name: string): boolean {
  return path.split(sep).some((part, i, parts) => (i === parts.length - 1 ? part.replace(/\.[^.]+$/, '') : part) === name);
}

/** The workspace index's symbols named like the path's last segment (Go's `Rect.Area` and `(*Rect).Area` included). */
async function indexedFiles(ctx: ToolContext, conn: LspConnection, last: string, container: string | undefined, others: string[], projectFiles: ProjectCoverage): Promise<DeclaringFile[]> {
  const result = await workspaceSymbols(ctx, conn, last, projectFiles);
  const files = new Map<string, DeclaringFile>();
  for (const s of result) {
    const name = s.name.replace(/^.*[.)]/, '');
    if (name !== last && s.name !== last) {
      if (others.length < 5 && !others.includes(s.name)) others.push(`${s.containerName ? `${s.containerName}.` : ''}${s.name}`);
      continue;
    }
    const path = uriToPath(s.location.uri);
    if (!path || !ctx.workspace.rootList.some((r) => path === r || path.startsWith(r.endsWith(sep) ? r : r + sep))) continue;
    const containerMatches = container !== undefined && (s.containerName === container || (s.containerName ?? '').endsWith(`.${container}`) || (s.name !== name && s.name.includes(container)));
    // A top-level entry (no container) matches only through its module's name (`service.run`).
    const mayMatch = container === undefined || containerMatches || (!s.containerName && inModuleNamed(path, container));
    const known = files.get(path);
    if (known) {
      known.containerMatches ||= containerMatches;
      known.mayMatch ||= mayMatch;
    } else files.set(path, { path, containerMatches, mayMatch });
  }
  return [...files.values()];
}

/**
 * The symbols a path names anywhere in the workspace: the servers' workspace symbol index gives
 * the files that declare its last segment, and each file's document symbols decide whether the
 * containers match too.
 */
export async function findSymbolCandidates(
  ctx: ToolContext,
  parsed: ParsedSymbolPath,
  args: ReadinessArgs & { language_id?: string | undefined },
): Promise<{ candidates: SymbolCandidate[]; near: string[]; unexamined: number; partial?: string } | NotReadyResult> {
  const last = parsed.segments[parsed.segments.length - 1] as string;
  const container = parsed.segments.length > 1 ? parsed.segments[parsed.segments.length - 2] : undefined;
  const path = parsed.segments.join('.');
  const declaring = new Map<string, DeclaringFile>();
  const add = (found: readonly DeclaringFile[]) => {
    for (const f of found) {
      const known = declaring.get(f.path);
      if (known) {
        known.containerMatches ||= f.containerMatches;
        known.mayMatch ||= f.mayMatch;
      } else declaring.set(f.path, { ...f });
    }
  };
  const others: string[] = [];
  const conns: { conn: LspConnection; projectFiles: ProjectCoverage }[] = [];
  // A server whose index misses part of the workspace (ReadinessSnapshot.partial): the search is not all of it.
  const partials: string[] = [];
  for (const server of await symbolServers(ctx, args.language_id)) {
    const conn = await ctx.workspace.connection(server);
    if (!conn.supports('workspace/symbol')) continue;
    const projectFiles = await loadEveryProject(ctx, conn);
    const notReady = (await awaitReady(conn, args, ctx)) ?? coverageNotReady(ctx, conn, projectFiles);
    if (notReady) return notReady;
    conns.push({ conn, projectFiles });
    const partial = conn.readiness.snapshot().partial;
    if (partial) partials.push(partial);
    add(await indexedFiles(ctx, conn, last, container, others, projectFiles));
  }
  // Nothing declares the last name: the files that declare its containers hold the close matches.
  for (const segment of declaring.size === 0 ? parsed.segments.slice(0, -1).reverse() : []) {
    for (const { conn, projectFiles } of conns) add(await indexedFiles(ctx, conn, segment, undefined, [], projectFiles));
    if (declaring.size > 0) break;
  }
  // Stable: the index's order within each group.
  const order = (f: DeclaringFile) => (f.containerMatches ? 0 : f.mayMatch ? 1 : 2);
  const ranked = [...declaring.values()].sort((a, b) => order(a) - order(b));
  const files = ranked.map((f) => f.path);
  const candidates: SymbolCandidate[] = [];
  const near: string[] = [];
  const examine = async (file: string): Promise<NotReadyResult | undefined> => {
    const doc = await openReadyDocument(ctx, { ...args, file_path: file });
    if (isNotReady(doc)) return doc;
    const found = await candidatesInFile(ctx, doc, path);
    candidates.push(...found.candidates);
    near.push(...found.near.map((n) => `${doc.label}:${n}`));
    return undefined;
  };
  for (const file of files.slice(0, MAX_FILES)) {
    const notReady = await examine(file);
    if (notReady) return notReady;
  }
  // An index that names each symbol once left out the files that only declare it: its references' files.
  const referencing = await referencingFiles(ctx, candidates, new Set(files));
  const room = Math.max(0, MAX_FILES - files.length);
  for (const file of referencing.slice(0, room)) {
    const notReady = await examine(file);
    if (notReady) return notReady;
  }
  candidates.sort((a, b) => a.rank - b.rank || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0) || a.node.selectionRange.start.line - b.node.selectionRange.start.line);
  // Files left out whose index entries all name another container cannot hold the path.
  const unexamined = ranked.slice(MAX_FILES).filter((f) => f.mayMatch).length + Math.max(0, referencing.length - room);
  return { candidates, near: (near.length ? near : others).slice(0, 5), unexamined, ...(partials.length ? { partial: partials.join(' ') } : {}) };
}

/**
 * The files, other than `examined`, that the references of the candidates found so far are in,
 * for servers whose index names each symbol once (ServerProfile.indexNamesSymbolOnce: clangd):
 * the headers that declare a function defined elsewhere.
 */
async function referencingFiles(ctx: ToolContext, candidates: readonly SymbolCandidate[], examined: ReadonlySet<string>): Promise<string[]> {
  const files = new Set<string>();
  for (const c of candidates.filter((x) => x.rank === 0 && x.doc.handle.conn.server.indexNamesSymbolOnce)) {
    const { conn, uri } = c.doc.handle;
    const params = { textDocument: { uri }, position: c.node.selectionRange.start, context: { includeDeclaration: true } };
    const locations = await requestLocations(conn, ctx.workspace.registry, 'textDocument/references', params, ctx.signal, (q, m, p, s) => ctx.workspace.query(q, m, p, s));
    for (const l of locationTargets(locations)) {
      const path = uriToPath(l.uri);
      if (path && !examined.has(path) && ctx.workspace.rootList.some((r) => isWithin(r, path))) files.add(path);
    }
  }
  return [...files];
}
