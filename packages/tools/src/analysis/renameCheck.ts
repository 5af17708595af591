import type { Location, Position, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { fromLspPosition, splitLines, uriToPath } from '@agent-lsp/protocol';
import { readRegularFileSync, type LspConnection } from '@agent-lsp/lsp';

/** A place a rename's edits did not touch although the old name is there (1-based, characters). */
export interface MissedPlace {
  file: string;
  line: number;
  column: number;
}

/** Every file's text edits in a WorkspaceEdit, by URI (both `changes` and `documentChanges`). */
export function editsByUri(edit: WorkspaceEdit): Map<string, TextEdit[]> {
  const out = new Map<string, TextEdit[]>();
  const add = (uri: string, edits: readonly TextEdit[]) => out.set(uri, [...(out.get(uri) ?? []), ...edits]);
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change) add(change.textDocument.uri, change.edits.filter((e): e is TextEdit => 'range' in e && 'newText' in e));
  }
  return out;
}

const IDENTIFIER = /[\p{L}\p{N}_$]/u;

/** The identifier around `position` in `text` (LSP coordinates), or undefined. */
export function identifierAt(text: string, position: Position): string | undefined {
  const line = splitLines(text)[position.line] ?? '';
  let start = position.character;
  let end = position.character;
  while (start > 0 && IDENTIFIER.test(line.charAt(start - 1))) start--;
  while (end < line.length && IDENTIFIER.test(line.charAt(end))) end++;
  return end > start ? line.slice(start, end) : undefined;
}

function covers(range: Range, p: Position): boolean {
  const afterStart = p.line > range.start.line || (p.line === range.start.line && p.character >= range.start.character);
  const beforeEnd = p.line < range.end.line || (p.line === range.end.line && p.character < range.end.character);
  return afterStart && beforeEnd;
}

/**
 * Word-bounded occurrences of `name` in `text` that no edit range covers (LSP positions). Comments
 * and strings count too: this is a scan, and what it finds is only "possibly" missed.
 */
export function uncoveredOccurrences(text: string, name: string, edits: readonly TextEdit[]): Position[] {
  const out: Position[] = [];
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}_$])${escaped}(?![\\p{L}\\p{N}_$])`, 'gu');
  splitLines(text).forEach((line, i) => {
    for (const m of line.matchAll(pattern)) {
      const p = { line: i, character: m.index };
      if (!edits.some((e) => covers(e.range, p))) out.push(p);
    }
  });
  return out;
}

function readText(conn: LspConnection, uri: string): string | undefined {
  const open = conn.documents.get(uri)?.text;
  if (open !== undefined) return open;
  const path = uriToPath(uri);
  return path ? readRegularFileSync(path)?.text : undefined;
}

/**
 * Places a rename's edits miss: references the server reports that no edit covers, and
 * word-bounded occurrences of the old name in the files the rename touches (clangd, for one,
 * leaves macro bodies alone). `label` turns a URI into what the agent sees.
 */
export async function possiblyMissed(conn: LspConnection, uri: string, position: Position, edit: WorkspaceEdit, label: (uri: string) => string, signal?: AbortSignal): Promise<MissedPlace[]> {
  const byUri = editsByUri(edit);
  const text = readText(conn, uri);
  const name = text === undefined ? undefined : identifierAt(text, position);
  const missed = new Map<string, { uri: string; p: Position }>();
  const note = (u: string, p: Position) => missed.set(`${u}\0${p.line}\0${p.character}`, { uri: u, p });
  if (conn.supports('textDocument/references')) {
    const refs = await conn
      .request<Location[] | null>('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } }, { signal })
      .catch(() => null);
    for (const r of refs ?? []) {
      if (!(byUri.get(r.uri) ?? []).some((e) => covers(e.range, r.range.start))) note(r.uri, r.range.start);
    }
  }
  if (name) {
    for (const [u, edits] of byUri) {
      const t = readText(conn, u);
      if (t !== undefined) for (const p of uncoveredOccurrences(t, name, edits)) note(u, p);
    }
  }
  const out: MissedPlace[] = [];
  for (const { uri: u, p } of missed.values()) {
    const t = readText(conn, u);
    const at = t === undefined ? { line: p.line + 1, column: p.character + 1 } : fromLspPosition(splitLines(t), p);
    out.push({ file: label(u), line: at.line, column: at.column });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
}
