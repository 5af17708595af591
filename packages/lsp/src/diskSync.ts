import { uriToPath } from '@agent-lsp/protocol';
import { mayHaveChanged, readDiskText, type DiskFile } from './diskText.js';
import type { DocumentStore } from './documents.js';

export interface DiskSyncOptions {
  /**
   * Open text not known to be the disk's: `replace` gives the server the disk's text instead (the
   * front, which holds no text of its own outside an exclusive section); `keep` never overwrites
   * it and only records it as the disk's when it equals the file (the broker, whose clients'
   * unsaved buffers are theirs).
   */
  ownText: 'replace' | 'keep';
  /** Read and compare even when the file's size and mtime are unchanged (after our own writes). */
  force?: boolean;
  /** Close a document whose file is gone (default); false leaves it to whoever holds it open. */
  closeMissing?: boolean;
}

export interface DiskSyncResult {
  /** Documents the server was given new text for. */
  resynced: string[];
  /** Documents closed because their file is gone (or can no longer be a document). */
  closed: string[];
}

/**
 * Brings the server's copies of the given open documents in step with the disk: a document whose
 * text is the disk's and whose file changed since (size + mtime, then content hash) gets the new
 * text as a full change, or is closed when the file is gone. Documents not open are left alone.
 */
export async function syncWithDisk(store: DocumentStore, uris: Iterable<string>, options: DiskSyncOptions): Promise<DiskSyncResult> {
  const result: DiskSyncResult = { resynced: [], closed: [] };
  await Promise.all([...new Set(uris)].map((uri) => syncOne(store, uri, options, result)));
  return result;
}

/** How often a check starts over when the server's copy changed while it read the file. */
const MAX_ATTEMPTS = 3;

async function syncOne(store: DocumentStore, uri: string, options: DiskSyncOptions, result: DiskSyncResult, attempt = 1): Promise<void> {
  const doc = store.get(uri);
  const path = uriToPath(uri);
  if (!doc || !path) return;
  const known = doc.disk;
  if (known && options.force !== true && !(await mayHaveChanged(path, known))) return;
  const textBefore = doc.text;
  let file: DiskFile | undefined;
  let unreadable = false;
  try {
    file = await readDiskText(path);
  } catch {
    unreadable = true;
  }
  // Someone else changed the server's copy while we read (a concurrent check that read the file
  // earlier, perhaps): look again, so what the server holds is at least as new as this check.
  const now = store.get(uri);
  if (!now) return;
  if (now.text !== textBefore) {
    if (attempt < MAX_ATTEMPTS) await syncOne(store, uri, options, result, attempt + 1);
    return;
  }
  const ours = now.disk !== undefined || options.ownText === 'replace';
  if (!file || unreadable) {
    if (ours && options.closeMissing !== false && store.close(uri)) result.closed.push(uri);
    return;
  }
  if (file.text === now.text) {
    store.adoptDisk(uri, file.text, file.state);
    return;
  }
  if (!ours) return;
  store.sync(uri, now.languageId, file.text, { internal: now.internal, disk: file.state });
  result.resynced.push(uri);
}
