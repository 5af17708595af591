import { sep } from 'node:path';
import type { DocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import { UserError, uriToPath } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument, type ReadyDocument } from './documentQuery.js';
import { loadEveryProject, workspaceSymbols, type ProjectCoverage } from './projectSeeds.js';
import { awaitReady, type NotReadyResult, type ReadinessArgs } from './readinessGate.js';
import { closeMatches, modulePrefixes, parseSymbolPath, qualifiedName, resolveSymbolPath, symbolTree, type ParsedSymbolPath, type SymbolNode } from './symbolPath.js';
import { symbolServers } from './tools/symbols.js';
import type { ToolContext } from './toolDefinition.js';

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

/** Files whose document symbols are examined for one path: the workspace index's best. */
const MAX_FILES = 25;


/** The workspace index's symbols named like the path's last segment (Go's `Rect.Area` and `(*Rect).Area` included). */
async function indexedFiles(ctx: ToolContext, conn: LspConnection, last: string, others: string[], projectFiles: ProjectCoverage): Promise<string[]> {
  const result = await workspaceSymbols(ctx, conn, last, projectFiles);
  const files: string[] = [];
  for (const s of result) {
    const name = s.name.replace(/^.*[.)]/, '');
    if (name !== last && s.name !== last) {
      if (others.length < 5 && !others.includes(s.name)) others.push(`${s.containerName ? `${s.containerName}.` : ''}${s.name}`);
      continue;
    }
    const path = uriToPath(s.location.uri);
    if (path && !files.includes(path) && ctx.workspace.rootList.some((r) => path === r || path.startsWith(r.endsWith(sep) ? r : r + sep))) files.push(path);
  }
  return files;
}

/**
 * The symbols a path names anywhere in the workspace: the servers' workspace symbol index gives
 * the files that declare its last segment, and each file's document symbols decide whether the
 * containers match too.
 */
export async function findSymbolCandidates(ctx: ToolContext, parsed: ParsedSymbolPath, args: ReadinessArgs & { language_id?: string | undefined }): Promise<{ candidates: SymbolCandidate[]; near: string[] } | NotReadyResult> {
  const last = parsed.segments[parsed.segments.length - 1] as string;
  const path = parsed.segments.join('.');
  const files: string[] = [];
  const others: string[] = [];
  const conns: { conn: LspConnection; projectFiles: ProjectCoverage }[] = [];
  for (const server of await symbolServers(ctx, args.language_id)) {
    const conn = await ctx.workspace.connection(server);
    if (!conn.supports('workspace/symbol')) continue;
    const projectFiles = await loadEveryProject(ctx, conn);
    const notReady = await awaitReady(conn, args, ctx);
    if (notReady) return notReady;
    conns.push({ conn, projectFiles });
    for (const f of await indexedFiles(ctx, conn, last, others, projectFiles)) if (!files.includes(f)) files.push(f);
  }
  // Nothing declares the last name: the files that declare its containers hold the close matches.
  for (const segment of files.length === 0 ? parsed.segments.slice(0, -1).reverse() : []) {
    for (const { conn, projectFiles } of conns) for (const f of await indexedFiles(ctx, conn, segment, [], projectFiles)) if (!files.includes(f)) files.push(f);
    if (files.length > 0) break;
  }
  const candidates: SymbolCandidate[] = [];
  const near: string[] = [];
  for (const file of files.slice(0, MAX_FILES)) {
    const doc = await openReadyDocument(ctx, { ...args, file_path: file });
    if (isNotReady(doc)) return doc;
    const found = await candidatesInFile(ctx, doc, path);
    candidates.push(...found.candidates);
    near.push(...found.near.map((n) => `${doc.label}:${n}`));
  }
  candidates.sort((a, b) => a.rank - b.rank || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0) || a.node.selectionRange.start.line - b.node.selectionRange.start.line);
  return { candidates, near: (near.length ? near : others).slice(0, 5) };
}
