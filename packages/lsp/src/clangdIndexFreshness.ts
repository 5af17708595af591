import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { toDisposable, uriToPath } from '@agent-lsp/protocol';
import { mayHaveChangedSync, readRegularFileSync } from './diskText.js';
import type { LspConnection } from './connection.js';
import { msFromEnv, type ReadinessContext } from './readinessContext.js';
import { whenServerRead } from './readProbe.js';

/**
 * clangd answers references, definitions and symbols from two indexes: a background index of every
 * file of the compilation database, which clangd 14 reads once and never again for a closed file
 * that changed on disk (it registers no file watchers), and a dynamic index of the files it has
 * built since they were opened, which overrides the background one for those files and keeps
 * them after they are closed. So an answer is current only once clangd has built the text of
 * every file that changed: (1) a closed file changed on disk (or by agent-lsp's own writes) is
 * opened with its disk text (empty when it is gone) and held until clangd has built it, then
 * closed; (2) an open document given the disk's new text counts until clangd has built it, and so
 * does one opened with the disk's text when clangd last built another text of it; (3) one closed
 * before clangd built it, or whose file changed since, is held with the disk's text the same way.
 * Speculative overlays are left to the evaluations, which wait for their own diagnostics (an
 * overlay of a closed file stays in the dynamic index until the file is built again: not handled
 * here). Meanwhile the server is `indexing`: tools
 * wait for it, or say that the answer would not be complete. Built = clangd published diagnostics
 * for that version (it updates the dynamic index before it publishes). An open-and-close without
 * the wait does nothing: clangd cancels a build whose file was closed.
 */

/** Closed files held open at once (an open sqlite3.c costs clangd hundreds of MB); the rest wait their turn. */
export const MAX_HELD_FILES = 8;
/**
 * A text clangd has not built after this long is given up on, so no state waits for ever: the
 * server is ready again, but partial (its index may hold the file's previous text) until clangd
 * builds that file.
 */
export const GIVE_UP_MS = 300_000;

/** GIVE_UP_MS, or AGENT_LSP_BUILD_GIVE_UP_MS where set (tests reach the give-up in milliseconds). */
export function buildGiveUpMs(env: NodeJS.ProcessEnv = process.env): number {
  return msFromEnv(env, 'AGENT_LSP_BUILD_GIVE_UP_MS', GIVE_UP_MS, 1);
}

export interface IndexFreshness {
  /** Nothing changed waits to be built. */
  readonly idle: boolean;
  /** Files given up on and not built since: what answers may miss (ReadinessSnapshot.partial), if any. */
  readonly partial: string | undefined;
  /** How long a text waits to be built before it is given up on. */
  readonly giveUpMs: number;
}

/** A text's sha256, as DiskState keeps it (`known`: the disk's hash, when the text is the disk's). */
function hashOf(text: string, known: string | undefined): string {
  return known ?? createHash('sha256').update(text).digest('hex');
}

const trackers = new WeakMap<LspConnection, IndexFreshness>();

/**
 * A broker's door: a client's request passed its own readiness gate before the broker's watcher
 * and disk checks found the change, so the request waits here until what changed is built
 * (bounded: every text is built or given up on within the give-up time). Also after a tool opened
 * files an answer named (freshAnswer.ts), before it asks again. Resolves early when `signal` aborts.
 */
export async function untilChangedFilesBuilt(conn: LspConnection, signal?: AbortSignal): Promise<void> {
  const freshness = trackers.get(conn);
  if (!freshness || freshness.idle || signal?.aborted) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      sub.dispose();
      crash.dispose();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const sub = conn.readiness.onChange(() => freshness.idle && done());
    const crash = conn.onCrash(done);
    const timer = setTimeout(done, freshness.giveUpMs);
    signal?.addEventListener('abort', done);
  });
}

/**
 * `unindexed`: what the index misses whatever clangd builds (files it does not know: no compilation
 * database and more files than agent-lsp opens), part of every partial readiness it reports.
 */
export function trackIndexFreshness({ conn, store }: ReadinessContext, onIdle: () => void, unindexed?: string): IndexFreshness {
  const { documents, diagnostics, readiness, logger, server } = conn;
  const giveUpMs = buildGiveUpMs();
  /** URIs whose current text clangd has not built yet, with when they started waiting. */
  const pending = new Map<string, number>();
  /** URIs given up on and not built since: clangd's index may hold a previous text of them. */
  const givenUp = new Set<string>();
  /** Documents opened here, closed again once built. */
  const held = new Set<string>();
  /** The hash of the text clangd last built for each file (its dynamic index holds that text). */
  const built = new Map<string, string>();
  /** Closed files waiting for a place among the held ones. */
  const queue = new Set<string>();
  let closing = false;
  let flipped = false;
  let sweep: NodeJS.Timeout | undefined;
  store.add(toDisposable(() => clearTimeout(sweep)));

  const languageOf = (path: string): string | undefined => server.extensions[extname(path).toLowerCase()];

  /**
   * While tools wait for the builds, clangd publishes for the open includers too; those pushes
   * settle their diagnostics only once a request sent after the change was answered (see
   * DiagnosticsCollector), which nobody sends meanwhile: an unknown method, answered at once.
   */
  const probe = (): void => {
    const sent = diagnostics.changesSent;
    whenServerRead(conn, 30_000, () => diagnostics.serverRead(sent));
  };

  const update = (): void => {
    const waiting = pending.size + queue.size;
    if (waiting > 0) probe();
    if (waiting > 0) {
      if (readiness.state === 'ready' || flipped) {
        flipped = true;
        readiness.indexing({ title: 'indexing changed files', message: `${waiting} file(s) not built yet` });
      }
      sweep ??= setTimeout(giveUpOnStale, giveUpMs / 4);
      return;
    }
    clearTimeout(sweep);
    sweep = undefined;
    if (flipped) {
      flipped = false;
      readiness.ready(freshness.partial);
    } else onIdle();
  };

  /** Makes clangd build `uri` afresh (close and open with the same text), and waits for it. */
  const rebuild = (uri: string, text: string): void => {
    if (documents.get(uri)?.text !== text) return;
    closing = true;
    try {
      documents.reopen(uri);
    } finally {
      closing = false;
    }
    pending.set(uri, Date.now());
    update();
  };

  /** clangd built the current text of `uri` (or its text is the one it built last): nothing to wait for. */
  const builtNow = (uri: string): void => {
    if (givenUp.delete(uri) && readiness.state === 'ready') readiness.ready(freshness.partial);
    if (!pending.delete(uri)) return;
    if (held.has(uri)) release(uri);
    pump();
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
    // Written again while it was held (a put-back read half-written, or before its last write; or
    // held as gone, read in the moment `git checkout` had unlinked it, and there again): what clangd
    // built is not the disk's text, and nobody reports the file again (the watcher's news came while
    // it was open, and was left to an owner it does not have). Held again with the disk's text until
    // built, before anyone is told the index is current, as a file closed by its owner is (below).
    // By stat: an echo of the write already read costs nothing.
    const path = uriToPath(uri);
    if (path !== undefined && mayHaveChangedSync(path, doc.disk)) queue.add(uri);
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
      if (now - since < giveUpMs) continue;
      logger.warn(`${server.displayName} has not built ${uri} within ${giveUpMs / 1000} s; answering without waiting for it (partial until it is built)`);
      pending.delete(uri);
      givenUp.add(uri);
      if (held.has(uri)) release(uri);
    }
    pump();
  }

  store.add(
    conn.onWatchedFilesSent((changes) => {
      for (const { uri } of changes) {
        const path = uriToPath(uri);
        // An open document follows the disk through its own changes (counted below); one held here
        // has no owner to follow the disk: release() compares it with the disk.
        if (path !== undefined && languageOf(path) !== undefined && !documents.get(uri)) queue.add(uri);
      }
      if (queue.size > 0) pump();
    }),
  );
  store.add(
    documents.onSent(({ kind, doc }) => {
      // Opened with the disk's text: news to clangd's index when it last built another text of
      // the file (a file it never built is the background index's, which the holds keep current).
      // A text clangd built last already (an overlay's restoration before the overlay was built)
      // is never built or published again: nothing to wait for.
      const builtThis = (): boolean => built.get(doc.uri) === hashOf(doc.text, doc.disk?.hash);
      const builtOther = (): boolean => built.has(doc.uri) && !builtThis();
      // Only the disk's texts: a speculative overlay is the evaluation's business, which waits for
      // its own diagnostics, and its restoration is the disk's text again.
      if (doc.disk !== undefined && ((kind === 'change' && !builtThis()) || (kind === 'open' && builtOther()))) {
        pending.set(doc.uri, Date.now());
        update();
        return;
      }
      // Changed back to the text clangd built last before it was seen to build the one in
      // between: clangd may have skipped that one (then it builds nothing now, its inputs being
      // the ones it built, and never publishes) or be building it (then its index holds that text
      // for a while). Opened afresh, it is built and published whichever it was; waited for.
      if (kind === 'change' && doc.disk !== undefined) {
        if (pending.has(doc.uri)) queueMicrotask(() => rebuild(doc.uri, doc.text));
        else builtNow(doc.uri);
        return;
      }
      if (kind !== 'close' || closing) return;
      const unbuilt = pending.delete(doc.uri);
      held.delete(doc.uri);
      const path = uriToPath(doc.uri);
      // What clangd built last for it may not be the disk's text: hold the disk's until built.
      if (path !== undefined && doc.disk !== undefined && (unbuilt || mayHaveChangedSync(path, doc.disk))) queue.add(doc.uri);
      pump();
    }),
  );
  store.add(
    diagnostics.onPush((uri) => {
      const doc = documents.get(uri);
      if (!doc || !diagnostics.published(uri)) return;
      built.set(uri, hashOf(doc.text, doc.disk?.hash));
      builtNow(uri);
    }),
  );

  const freshness: IndexFreshness = {
    get idle() {
      return pending.size === 0 && queue.size === 0;
    },
    get partial() {
      if (givenUp.size === 0) return unindexed;
      const names = [...givenUp].slice(0, 5).map((uri) => uriToPath(uri) ?? uri);
      const more = givenUp.size > names.length ? ` and ${givenUp.size - names.length} more` : '';
      const stale = `${server.displayName} did not build ${givenUp.size} changed file(s) within ${Math.round(giveUpMs / 1000)} s (${names.join(', ')}${more}): its index may still hold their previous text. Call again later; restart_lsp_server rebuilds the index.`;
      return unindexed === undefined ? stale : `${unindexed} ${stale}`;
    },
    giveUpMs,
  };
  trackers.set(conn, freshness);
  return freshness;
}
