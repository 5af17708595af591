import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToUri } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { git } from './gitDiff.js';
import { documentSymbols, type SymbolNode } from '../symbols/symbolTree.js';

/** A file's text at a git ref, as git stores it. */
export function textAtRef(top: string, ref: string, path: string, signal: AbortSignal): Promise<string> {
  return git(top, ['show', `${ref}:${path}`], signal);
}

/**
 * The document symbols of a text that is not on disk (a file as it was at the base of a diff), from
 * the same server: the text is written to a private temporary directory under the file's own name
 * (its extension picks the language; outside the workspace it joins no project and shadows
 * nothing), opened there, asked, closed and removed.
 */
export async function symbolsOfText(conn: LspConnection, languageId: string, path: string, text: string, signal: AbortSignal): Promise<SymbolNode[]> {
  const dir = await mkdtemp(join(tmpdir(), 'agent-lsp-base-'));
  const copy = join(dir, basename(path));
  const uri = pathToUri(copy);
  try {
    await writeFile(copy, text);
    conn.documents.sync(uri, languageId, text, { internal: true });
    return await documentSymbols(conn, uri, signal);
  } finally {
    conn.documents.close(uri);
    await rm(dir, { recursive: true, force: true });
  }
}
