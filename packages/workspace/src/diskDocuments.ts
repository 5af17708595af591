import { pathToUri, UserError } from '@agent-lsp/protocol';
import { readDiskText, syncWithDisk, type LspConnection, type Logger } from '@agent-lsp/lsp';
import type { DocumentHandle } from './workspaceOptions.js';

/**
 * Opens a file in its server's connection, or brings an open one in step with the disk: the
 * server sees what is on disk now. The file is read once (an open one only when a stat says it
 * changed). `shown` names the file in errors.
 */
export async function openFromDisk(conn: LspConnection, path: string, languageId: string, shown: string): Promise<DocumentHandle> {
  const uri = pathToUri(path);
  if (conn.documents.get(uri)?.disk) {
    await syncWithDisk(conn.documents, [uri], { ownText: 'replace' });
    const open = conn.documents.get(uri);
    // The same text again changes nothing but makes a document agent-lsp opened for itself the agent's.
    const doc = open && conn.documents.sync(uri, open.languageId, open.text);
    if (doc) return { conn, path, uri, languageId, doc };
  }
  const file = await readDiskText(path, shown);
  if (!file) throw new UserError('file_not_found', `Could not read ${shown}: it does not exist (any more).`);
  const doc = conn.documents.sync(uri, languageId, file.text, { disk: file.state });
  return { conn, path, uri, languageId, doc };
}

/** One connection's open documents (or `uris` of them) brought in step with the disk; a failure is logged, not thrown. */
export async function syncBuffers(conn: LspConnection, uris: readonly string[] | undefined, force: boolean, logger: Logger): Promise<void> {
  try {
    await syncWithDisk(conn.documents, uris ?? conn.documents.uris({ includeInternal: true }), { ownText: 'replace', force });
  } catch (err) {
    logger.warn(`could not bring ${conn.server.displayName}'s buffers in step with the disk: ${(err as Error).message}`);
  }
}
