import { extname } from 'node:path';
import { toDisposable, uriToPath } from '@agent-lsp/protocol';
import { mayHaveChangedSync, readRegularFileSync } from './diskText.js';
import type { ReadinessContext } from './readinessContext.js';

/**
 * clangd answers references, definitions and symbols from two indexes: a background index of every
 * file of the compilation database, which clangd 14 reads once and never again for a closed file
 * that changed on disk (it registers no file watchers), and a dynamic index of the files it has
 * built since they were opened, which overrides the background one for those files and keeps
 * them after they are closed. So an answer is current only once clangd has built the text of
 * every file that changed: (1) a closed file changed on disk (or by agent-lsp's own writes) is
 * opened with its disk text (empty when it is gone) and held until clangd has built it, then
 * closed; (2) an open document given new text counts until clangd has built that text; (3) one
 * closed before clangd built it, or closed while it held text other than the disk's (a preview's
 * overlay), is held with the disk's text the same way. Meanwhile the server is `indexing`: tools
 * wait for it, or say that the answer would not be complete. Built = clangd published diagnostics
 * for that version (it updates the dynamic index before it publishes). An open-and-close without
 * the wait does nothing: clangd cancels a build whose file was closed.
 */

/** Closed files held open at once (an open sqlite3.c costs clangd hundreds of MB); the rest wait their turn. */
export const MAX_HELD_FILES = 8;
/** A text clangd has not built after this long is given up on (logged), so no state waits for ever. */
export const GIVE_UP_MS = 300_000;

export interface IndexFreshness {
  /** Nothing changed waits to be built. */
  readonly idle: boolean;
}

export function trackIndexFreshness({ conn, store }: ReadinessContext, onIdle: () => void): IndexFreshness {
  const { documents, diagnostics, readiness, logger, server } = conn;
  /** URIs whose current text clangd has not built yet, with when they started waiting. */
  const pending = new Map<string, number>();
  /** Documents opened here, closed again once built. */
  const held = new Set<string>();
  /** Closed files waiting for a place among the held ones. */
  const queue = new Set<string>();
  let closing = false;
  let flipped = false;
  let sweep: NodeJS.Timeout | undefined;
  store.add(toDisposable(() => clearTimeout(sweep)));

  const languageOf = (path: string): string | undefined => server.extensions[extname(path).toLowerCase()];

  const update = (): void => {
    const waiting = pending.size + queue.size;
    if (waiting > 0) {
      if (readiness.state === 'ready' || flipped) {
        flipped = true;
        readiness.indexing({ title: 'indexing changed files', message: `${waiting} file(s) not built yet` });
      }
      sweep ??= setTimeout(giveUpOnStale, GIVE_UP_MS / 4);
      return;
    }
    clearTimeout(sweep);
    sweep = undefined;
    if (flipped) {
      flipped = false;
      readiness.ready();
    } else onIdle();
  };

  const release = (uri: string): void => {
    const doc = documents.get(uri);
    held.delete(uri);
    // Someone opened it meanwhile (the agent, a broker's client): theirs now.
    if (!doc?.internal) return;
    closing = true;
    try {
      documents.close(uri);
    } finally {
      closing = false;
    }
  };

  const pump = (): void => {
    for (const uri of [...queue]) {
      if (held.size >= MAX_HELD_FILES) break;
      queue.delete(uri);
      const path = uriToPath(uri);
      const languageId = path === undefined ? undefined : languageOf(path);
      if (path === undefined || languageId === undefined || documents.get(uri)) continue;
      const file = readRegularFileSync(path);
      held.add(uri);
      // A file gone is held as empty text: clangd's index then has nothing left in it.
      documents.sync(uri, languageId, file?.text ?? '', file ? { internal: true, disk: file.state } : { internal: true });
      pending.set(uri, Date.now());
    }
    update();
  };

  function giveUpOnStale(): void {
    sweep = undefined;
    const now = Date.now();
    for (const [uri, since] of pending) {
      if (now - since < GIVE_UP_MS) continue;
      logger.warn(`${server.displayName} has not built ${uri} within ${GIVE_UP_MS / 1000} s; answering without waiting for it`);
      pending.delete(uri);
      if (held.has(uri)) release(uri);
    }
    pump();
  }

  store.add(
    conn.onWatchedFilesSent((changes) => {
      for (const { uri } of changes) {
        const path = uriToPath(uri);
        // An open document follows the disk through its own changes (counted below).
        if (path !== undefined && languageOf(path) !== undefined && !documents.get(uri)) queue.add(uri);
      }
      if (queue.size > 0) pump();
    }),
  );
  store.add(
    documents.onSent(({ kind, doc }) => {
      if (kind === 'change' || (kind === 'open' && doc.disk === undefined)) {
        pending.set(doc.uri, Date.now());
        update();
        return;
      }
      if (kind !== 'close' || closing) return;
      const unbuilt = pending.delete(doc.uri);
      held.delete(doc.uri);
      const path = uriToPath(doc.uri);
      // What clangd built last for it may not be the disk's text: hold the disk's until built.
      if (path !== undefined && (unbuilt || doc.disk === undefined || mayHaveChangedSync(path, doc.disk))) queue.add(doc.uri);
      pump();
    }),
  );
  store.add(
    diagnostics.onPush((uri) => {
      if (!pending.has(uri) || !diagnostics.published(uri)) return;
      pending.delete(uri);
      if (held.has(uri)) release(uri);
      pump();
    }),
  );

  return {
    get idle() {
      return pending.size === 0 && queue.size === 0;
    },
  };
}
