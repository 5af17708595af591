import { extname } from 'node:path';
import { uriToPath } from '@agent-lsp/protocol';
import { mayHaveChanged, readDiskText, type DiskFile } from './diskText.js';
import type { DocumentStore } from './documents.js';
import type { ServerDefinition } from './serverProfile.js';

/** Files created on disk opened in a server at once, per batch of watcher events. */
export const MAX_OPENED_CREATED = 64;

/**
 * Per store: documents closed because their file was gone (closeDeletedFiles, syncWithDisk). One
 * created again on disk is a restoration, which some servers must be told of (dependentRefresh.ts).
 */
const closedAsGone = new WeakMap<DocumentStore, Set<string>>();

function closeAsGone(store: DocumentStore, uri: string): boolean {
  if (!store.close(uri)) return false;
  let gone = closedAsGone.get(store);
  if (!gone) closedAsGone.set(store, (gone = new Set()));
  gone.add(uri);
  return true;
}

/** Whether `uri` was closed as gone (and is back now: it is forgotten). */
function takeRestored(store: DocumentStore, uri: string): boolean {
  return closedAsGone.get(store)?.delete(uri) === true;
}

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
  // Held empty for a file that is gone until clangd has built it (clangdIndexFreshness.ts): that is the disk.
  if (!file && !unreadable && now.internal && now.disk === undefined && now.text === '') return;
  if (!file || unreadable) {
    if (ours && options.closeMissing !== false && closeAsGone(store, uri)) result.closed.push(uri);
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

/**
 * Files just created on disk, of the server's languages, opened in it with their disk text as
 * internal documents (kept in step with the disk from then on). A server learns of a new file from
 * workspace/didChangeWatchedFiles only lazily (pyright and tsserver update their file lists on a
 * timer), so a query right after the creation would be answered without it; an open document is
 * part of the program at once. At most MAX_OPENED_CREATED per call; resolves with those opened, and
 * among all `uris` those that are back after they were closed as gone (`restored`).
 */
export async function openCreatedFiles(store: DocumentStore, server: Pick<ServerDefinition, 'extensions'>, uris: readonly string[]): Promise<{ opened: string[]; restored: string[] }> {
  const restored = uris.filter((uri) => takeRestored(store, uri));
  const languageOf = (path: string) => server.extensions[extname(path).toLowerCase()];
  const fresh = uris.flatMap((uri) => {
    const path = uriToPath(uri);
    const languageId = path === undefined ? undefined : languageOf(path);
    return path !== undefined && languageId !== undefined && store.get(uri) === undefined ? [{ uri, path, languageId }] : [];
  });
  const opened: string[] = [];
  await Promise.all(
    fresh.slice(0, MAX_OPENED_CREATED).map(async ({ uri, path, languageId }) => {
      const file = await readDiskText(path).catch(() => undefined);
      // A client may have opened it meanwhile: its text wins.
      if (!file || store.get(uri) !== undefined) return;
      store.sync(uri, languageId, file.text, { internal: true, disk: file.state });
      opened.push(uri);
    }),
  );
  return { opened, restored };
}

/**
 * Files just deleted on disk, of the server's languages, that the server does not hold open: each
 * is opened and closed again at once. tsserver hears of deletions only from its own watchers, on
 * a timer (typescript-language-server passes workspace/didChangeWatchedFiles on only in its
 * client-watcher mode), so a query right after the deletion would still search the file; closing
 * a document whose file is gone drops it from every project at once. At most MAX_OPENED_CREATED
 * per call.
 */
export function closeDeletedFiles(store: DocumentStore, server: Pick<ServerDefinition, 'extensions'>, uris: readonly string[]): void {
  let count = 0;
  for (const uri of uris) {
    if (count === MAX_OPENED_CREATED) return;
    const path = uriToPath(uri);
    const languageId = path === undefined ? undefined : server.extensions[extname(path).toLowerCase()];
    if (languageId === undefined || store.get(uri) !== undefined) continue;
    count++;
    store.sync(uri, languageId, '', { internal: true });
    closeAsGone(store, uri);
  }
}
