import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { DocumentSymbol, Location, Range, SymbolInformation } from 'vscode-languageserver-protocol';
import { uriToPath } from '@agent-lsp/protocol';
import { walkSourceTree, type LspConnection, type ServerDefinition } from '@agent-lsp/lsp';
import type { OverlayFile } from './overlay.js';
import { touches } from './rangeMapping.js';
import { minimalEdits } from './textLocation.js';

const MAX_SCANNED_FILES = 5000;
const MAX_SYMBOLS = 10;
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * The other files an evaluation at workspace scope checks: those that reference a symbol whose
 * text the session changed (textDocument/references on the symbols its edits touch), then those
 * that name the edited module (a text search for the file's stem, for imports and includes the
 * server did not report). Must run while the server holds the on-disk text of the edited files.
 * Answers paths, referencing files first, at most `limit`.
 */
export async function findDependents(conn: LspConnection, server: ServerDefinition, roots: readonly string[], files: readonly OverlayFile[], limit: number): Promise<string[]> {
  const edited = new Set(files.map((f) => f.path));
  const found: string[] = [];
  const add = (path: string | undefined) => {
    if (path && !edited.has(path) && !found.includes(path) && server.extensions[extname(path).toLowerCase()]) found.push(path);
  };
  for (const f of files) {
    for (const range of await changedSymbols(conn, f)) {
      const refs = await conn
        .request<Location[] | null>('textDocument/references', { textDocument: { uri: f.uri }, position: range.start, context: { includeDeclaration: false } }, { timeoutMs: REQUEST_TIMEOUT_MS })
        .catch(() => null);
      for (const r of refs ?? []) add(uriToPath(r.uri));
    }
  }
  for (const path of namingFiles(roots, server, files)) add(path);
  return found.slice(0, limit);
}

/** Selection ranges (in the on-disk text) of the top-level and member symbols the edits touch. */
async function changedSymbols(conn: LspConnection, file: OverlayFile): Promise<Range[]> {
  const changed = minimalEdits(file.baseText, file.text).map((e) => e.range);
  if (changed.length === 0 || !conn.supports('textDocument/documentSymbol')) return [];
  const symbols = await conn
    .request<DocumentSymbol[] | SymbolInformation[] | null>('textDocument/documentSymbol', { textDocument: { uri: file.uri } }, { timeoutMs: REQUEST_TIMEOUT_MS })
    .catch(() => null);
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
  return out.slice(0, MAX_SYMBOLS);
}

/** Files of the server's languages under the roots whose text names an edited module's stem as a word. */
function namingFiles(roots: readonly string[], server: ServerDefinition, files: readonly OverlayFile[]): string[] {
  const stems = files.map((f) => basename(f.path, extname(f.path))).filter((s) => s.length > 1 && s !== 'index' && s !== '__init__');
  if (stems.length === 0) return [];
  const pattern = new RegExp(`\\b(${stems.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`);
  const out: string[] = [];
  let scanned = 0;
  for (const root of roots) {
    for (const path of walkSourceTree(root)) {
      if (scanned >= MAX_SCANNED_FILES) break;
      if (!server.extensions[extname(path).toLowerCase()]) continue;
      scanned++;
      try {
        if (pattern.test(readFileSync(path, 'utf8'))) out.push(path);
      } catch {
        // unreadable: not an importer we can check
      }
    }
  }
  return out;
}

