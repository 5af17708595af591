import { basename, extname } from 'node:path';
import type { DocumentSymbol, Location, Range, SymbolInformation } from 'vscode-languageserver-protocol';
import { uriToPath } from '@agent-lsp/protocol';
import { readDiskText, walkSourceTreeAsync, type LspConnection, type ServerDefinition } from '@agent-lsp/lsp';
import type { OverlayFile } from './overlay.js';
import { touches } from './rangeMapping.js';
import { minimalEdits } from './textLocation.js';

const MAX_SCANNED_FILES = 5000;
const REQUEST_TIMEOUT_MS = 15_000;

/** What the search for dependents found, and what kept it from being complete. */
export interface FoundDependents {
  /** Referencing files first, then files naming an edited module. */
  paths: string[];
  /** Why the list may miss dependents: a server error, a timeout, no references support. */
  problems: string[];
}

/**
 * The other files an evaluation at workspace scope checks: those that reference a symbol whose
 * text the session changed (textDocument/references on the symbols its edits touch), then those
 * that name the edited module (a text search for the file's stem, for imports and includes the
 * server did not report). Must run while the server holds the on-disk text of the edited files.
 * Requests end by `deadline` (ms since the epoch); whatever could not be asked is a problem, never
 * silently left out.
 */
export async function findDependents(conn: LspConnection, server: ServerDefinition, roots: readonly string[], files: readonly OverlayFile[], deadline: number): Promise<FoundDependents> {
  const edited = new Set(files.map((f) => f.path));
  const found = new Set<string>();
  const problems: string[] = [];
  const add = (path: string | undefined) => {
    if (path && !edited.has(path) && server.extensions[extname(path).toLowerCase()]) found.add(path);
  };
  const timeoutMs = () => Math.max(1, Math.min(REQUEST_TIMEOUT_MS, deadline - Date.now()));
  const canReference = conn.supports('textDocument/references');
  if (!canReference) problems.push(`${server.displayName} does not answer textDocument/references: only files naming an edited module were checked`);
  for (const f of files) {
    const symbols = await changedSymbols(conn, f, timeoutMs, problems);
    if (!canReference) continue;
    for (const range of symbols) {
      if (Date.now() >= deadline) {
        problems.push(`the time budget ran out before the references of every changed symbol in ${basename(f.path)} were asked`);
        break;
      }
      try {
        const refs = await conn.request<Location[] | null>('textDocument/references', { textDocument: { uri: f.uri }, position: range.start, context: { includeDeclaration: false } }, { timeoutMs: timeoutMs() });
        for (const r of refs ?? []) add(uriToPath(r.uri));
      } catch (err) {
        problems.push(`references of a changed symbol in ${basename(f.path)} (line ${range.start.line + 1}) failed: ${(err as Error).message}`);
      }
    }
  }
  for (const path of await namingFiles(roots, server, files, problems)) add(path);
  return { paths: [...found], problems };
}

/** Selection ranges (in the on-disk text) of the top-level and member symbols the edits touch. */
async function changedSymbols(conn: LspConnection, file: OverlayFile, timeoutMs: () => number, problems: string[]): Promise<Range[]> {
  const changed = minimalEdits(file.baseText, file.text).map((e) => e.range);
  if (changed.length === 0) return [];
  if (!conn.supports('textDocument/documentSymbol')) {
    problems.push(`${conn.server.displayName} does not answer textDocument/documentSymbol: the changed symbols of ${basename(file.path)} are unknown`);
    return [];
  }
  let symbols: DocumentSymbol[] | SymbolInformation[] | null;
  try {
    symbols = await conn.request<DocumentSymbol[] | SymbolInformation[] | null>('textDocument/documentSymbol', { textDocument: { uri: file.uri } }, { timeoutMs: timeoutMs() });
  } catch (err) {
    problems.push(`the symbols of ${basename(file.path)} could not be listed: ${(err as Error).message}`);
    return [];
  }
  const out: Range[] = [];
  const visit = (list: readonly (DocumentSymbol | SymbolInformation)[], depth: number) => {
    for (const s of list) {
      const full = 'location' in s ? s.location.range : s.range;
      const hit = changed.some((c) => touches(full, c) || touches(c, full) || (c.start.line >= full.start.line && c.start.line <= full.end.line));
      if (!hit) continue;
      out.push('selectionRange' in s ? s.selectionRange : full);
      if (depth < 1 && 'children' in s && s.children) visit(s.children, depth + 1);
    }
  };
  visit(symbols ?? [], 0);
  return out;
}

/**
 * Files of the server's languages under the roots whose text names an edited module's stem as a
 * word. Read without blocking (a large workspace must not stall the front); past `limit` files
 * the scan stops and says so in `problems`.
 */
export async function namingFiles(roots: readonly string[], server: Pick<ServerDefinition, 'extensions'>, files: readonly Pick<OverlayFile, 'path'>[], problems: string[], limit = MAX_SCANNED_FILES): Promise<string[]> {
  const stems = files.map((f) => basename(f.path, extname(f.path))).filter((s) => s.length > 1 && s !== 'index' && s !== '__init__');
  if (stems.length === 0) return [];
  const pattern = new RegExp(`\\b(${stems.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`);
  const out: string[] = [];
  let scanned = 0;
  for (const root of roots) {
    for await (const path of walkSourceTreeAsync(root)) {
      if (!server.extensions[extname(path).toLowerCase()]) continue;
      if (scanned++ >= limit) {
        problems.push(`only the first ${limit} files were searched for names of the edited modules; importers beyond them were not checked`);
        return out;
      }
      const text = await readDiskText(path).then((f) => f?.text, () => undefined); // unreadable: not an importer we can check
      if (text !== undefined && pattern.test(text)) out.push(path);
    }
  }
  return out;
}
