import { basename, extname } from 'node:path';
import type { DocumentSymbol, Location, Range, SymbolInformation } from 'vscode-languageserver-protocol';
import { uriToPath } from '@agent-lsp/protocol';
import { readDiskText, walkSourceTreeAsync, type LspConnection, type ServerDefinition } from '@agent-lsp/lsp';
import type { OverlayFile } from './overlay.js';
import { changedDeclarations, declarationsOf, touchedDeclarations, usedName, type Declaration } from './declarations.js';
import { minimalEdits } from './textLocation.js';

const MAX_SCANNED_FILES = 5000;
const READ_BATCH = 16;
const REQUEST_TIMEOUT_MS = 15_000;

/** What the search for dependents found, and what kept it from being complete. */
export interface FoundDependents {
  /** Referencing files first, then files naming an edited module. */
  paths: string[];
  /** Why the list may miss dependents: a server error, a timeout, no references support. */
  problems: string[];
}

/** Asks the server `method`, answered by `deadline` (ms since the epoch): a workspace evaluation asks through its steps. */
export type ServerAsk = <T>(method: string, params: unknown, deadline: number) => Promise<T>;

/** Asks the connection directly (inside a section the caller holds). */
export function askDirectly(conn: LspConnection): ServerAsk {
  return <T>(method: string, params: unknown, deadline: number) => conn.request<T>(method, params, { timeoutMs: Math.max(1, deadline - Date.now()) });
}

/**
 * The server's top-level and member symbols of an edited file's on-disk text (the server must hold
 * that text), listed once per file. Whatever keeps them from being listed is a problem, never
 * silently left out.
 */
export async function baseDeclarations(conn: LspConnection, file: OverlayFile, deadline: number, problems: string[], ask: ServerAsk = askDirectly(conn)): Promise<Declaration[]> {
  if (file.baseDeclarations) return file.baseDeclarations;
  if (!conn.supports('textDocument/documentSymbol')) {
    problems.push(`${conn.server.displayName} does not answer textDocument/documentSymbol: the changed symbols of ${basename(file.path)} are unknown`);
    return [];
  }
  try {
    file.baseDeclarations = declarationsOf(await ask<DocumentSymbol[] | SymbolInformation[] | null>('textDocument/documentSymbol', { textDocument: { uri: file.uri } }, deadline));
    return file.baseDeclarations;
  } catch (err) {
    problems.push(`the symbols of ${basename(file.path)} could not be listed: ${(err as Error).message}`);
    return [];
  }
}

/** What a file-scope evaluation did not check: other files naming a declaration the edits changed. */
export interface UncheckedUsers {
  /** The changed declarations, as `name (file)`. */
  declarations: string[];
  /** Other files of the server's languages naming one of them. */
  paths: string[];
  problems: string[];
}

/**
 * The declarations whose head (name, parameters, declared types) the edits change, and the words
 * other files use them by. Must run while the server holds the edited files' on-disk text.
 */
export async function changedNames(conn: LspConnection, files: readonly OverlayFile[], timeoutMs: number, problems: string[], ask: ServerAsk = askDirectly(conn)): Promise<{ declarations: string[]; words: string[] }> {
  const declarations: string[] = [];
  const words: string[] = [];
  for (const f of files) {
    const changed = changedRanges(f);
    if (changed.length === 0) continue;
    for (const d of changedDeclarations(await baseDeclarations(conn, f, Date.now() + Math.min(REQUEST_TIMEOUT_MS, timeoutMs), problems, ask), f.baseText, changed)) {
      const word = usedName(d);
      if (!word) continue;
      declarations.push(`${d.container ? `${d.container}.` : ''}${d.name} (${basename(f.path)})`);
      words.push(word);
    }
  }
  return { declarations, words };
}

/** The other files that name `words` (see changedNames): what a file-scope answer did not check. */
export async function uncheckedUsers(roots: readonly string[], server: Pick<ServerDefinition, 'extensions'>, files: readonly Pick<OverlayFile, 'path'>[], changed: { declarations: string[]; words: string[] }, problems: string[]): Promise<UncheckedUsers> {
  const edited = new Set(files.map((f) => f.path));
  const paths = (await filesNaming(roots, server, changed.words, problems, 'the names of the changed declarations')).filter((p) => !edited.has(p));
  return { declarations: changed.declarations, paths, problems };
}

/** The edits of a file as ranges of its on-disk text. */
export function changedRanges(file: Pick<OverlayFile, 'baseText' | 'text'>): Range[] {
  return minimalEdits(file.baseText, file.text).map((e) => e.range);
}

/**
 * The other files an evaluation at workspace scope checks: those that reference a symbol whose
 * text the session changed (textDocument/references on the symbols its edits touch), then those
 * that name the edited module (a text search for the file's stem, for imports and includes the
 * server did not report). `ask` must reach the server while it holds the on-disk text of the edited
 * files. Requests end by `deadline` (ms since the epoch); whatever could not be asked is a problem,
 * never silently left out.
 */
export async function findDependents(conn: LspConnection, ask: ServerAsk, server: ServerDefinition, roots: readonly string[], files: readonly OverlayFile[], deadline: number): Promise<FoundDependents> {
  const edited = new Set(files.map((f) => f.path));
  const found = new Set<string>();
  const problems: string[] = [];
  const add = (path: string | undefined) => {
    if (path && !edited.has(path) && server.extensions[extname(path).toLowerCase()]) found.add(path);
  };
  const requestDeadline = () => Math.min(Date.now() + REQUEST_TIMEOUT_MS, deadline);
  const canReference = conn.supports('textDocument/references');
  if (!canReference) problems.push(`${server.displayName} does not answer textDocument/references: only files naming an edited module were checked`);
  for (const f of files) {
    const changed = changedRanges(f);
    if (changed.length === 0) continue;
    const symbols = touchedDeclarations(await baseDeclarations(conn, f, requestDeadline(), problems, ask), changed).map((d) => d.selectionRange);
    if (!canReference) continue;
    for (const range of symbols) {
      if (Date.now() >= deadline) {
        problems.push(`the time budget ran out before the references of every changed symbol in ${basename(f.path)} were asked`);
        break;
      }
      try {
        const refs = await ask<Location[] | null>('textDocument/references', { textDocument: { uri: f.uri }, position: range.start, context: { includeDeclaration: false } }, requestDeadline());
        for (const r of refs ?? []) add(uriToPath(r.uri));
      } catch (err) {
        problems.push(`references of a changed symbol in ${basename(f.path)} (line ${range.start.line + 1}) failed: ${(err as Error).message}`);
      }
    }
  }
  // Read after the references came: a server ready on a partial index (pyrefly's walk stopped
  // short, clangd gave up on building a file) knows no references outside it.
  const partial = conn.readiness.snapshot().partial;
  if (canReference && partial !== undefined) problems.push(`${server.displayName}'s index misses part of the workspace, so references may have missed dependents there: ${partial}`);
  for (const path of await namingFiles(roots, server, files, problems)) add(path);
  return { paths: [...found], problems };
}

/**
 * Files of the server's languages under the roots whose text names an edited module's stem as a
 * word. Read without blocking (a large workspace must not stall the front); past `limit` files
 * the scan stops and says so in `problems`.
 */
export function namingFiles(roots: readonly string[], server: Pick<ServerDefinition, 'extensions'>, files: readonly Pick<OverlayFile, 'path'>[], problems: string[], limit = MAX_SCANNED_FILES): Promise<string[]> {
  const stems = files.map((f) => basename(f.path, extname(f.path))).filter((s) => s.length > 1 && s !== 'index' && s !== '__init__');
  return filesNaming(roots, server, stems, problems, 'names of the edited modules', limit);
}

/**
 * Files of the server's languages under the roots whose text has one of `words` as a word (the
 * files that may use them), read without blocking; past `limit` files the scan stops and says so
 * in `problems` (`what` names the words there).
 */
export async function filesNaming(roots: readonly string[], server: Pick<ServerDefinition, 'extensions'>, words: readonly string[], problems: string[], what: string, limit = MAX_SCANNED_FILES): Promise<string[]> {
  if (words.length === 0) return [];
  const pattern = new RegExp(`(?<![\\w$])(${[...new Set(words)].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w$])`);
  const out: string[] = [];
  // Read a few at a time: a file's read waits on the disk far more than on the CPU.
  let batch: string[] = [];
  const flush = async () => {
    const texts = await Promise.all(batch.map((path) => readDiskText(path).then((f) => f?.text, () => undefined))); // unreadable: not a file we can count
    batch.forEach((path, i) => {
      const text = texts[i];
      if (text !== undefined && pattern.test(text)) out.push(path);
    });
    batch = [];
  };
  let scanned = 0;
  for (const root of roots) {
    for await (const path of walkSourceTreeAsync(root)) {
      if (!server.extensions[extname(path).toLowerCase()]) continue;
      if (scanned++ >= limit) {
        await flush();
        problems.push(`only the first ${limit} files were searched for ${what}; files beyond them were not counted`);
        return out;
      }
      batch.push(path);
      if (batch.length >= READ_BATCH) await flush();
    }
  }
  await flush();
  return out;
}
