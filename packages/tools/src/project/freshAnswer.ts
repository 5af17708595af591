import { statSync } from 'node:fs';
import type { Location, LocationLink, Range } from 'vscode-languageserver-protocol';
import { startupMark, uriToPath } from '@agent-lsp/protocol';
import { readDiskText, untilChangedFilesBuilt, type LspConnection, type ServerRegistry } from '@agent-lsp/lsp';

type Locations = Location | Location[] | LocationLink[] | null;

/** Each location of a definition-style answer as uri and range (a LocationLink's target selection). */
export function locationTargets(result: Locations | undefined): { uri: string; range: Range }[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  return list.map((l) => ('targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange } : { uri: l.uri, range: l.range }));
}

function urisOf(result: Locations): string[] {
  return [...new Set(locationTargets(result).map((l) => l.uri))];
}

/**
 * Opens, with their disk text, the files an answer names that the server does not hold open for
 * us and that changed on disk since this connection began. A closed file reaches the server only
 * through a watcher, whose news lags the disk by a few hundred milliseconds (and never comes for
 * ignored directories): an answer naming such a file may have been computed on its old text.
 * Once open, the file is ours to keep in step with the disk (read-your-writes). Returns how many
 * were opened, once the server has taken them in: clangd answers from its index, which holds a
 * file's new text only once it has built it (clangdIndexFreshness.ts).
 */
export async function openChangedFiles(conn: LspConnection, registry: ServerRegistry, uris: readonly string[], signal?: AbortSignal): Promise<number> {
  const candidates: { uri: string; path: string; languageId: string }[] = [];
  for (const uri of uris) {
    if (conn.documents.get(uri)) continue;
    const path = uriToPath(uri);
    const route = path ? registry.forFile(path) : undefined;
    if (!path || route?.server.id !== conn.server.id) continue;
    candidates.push({ uri, path, languageId: route.languageId });
  }
  // Synchronous stats: an answer names up to hundreds of files, whose inodes the server just read.
  // Through libuv's thread pool each stat was a round trip of its own (stdlib, 1723 references:
  // ~40 ms of the front's CPU and ~0.5 s of wall time at load 20); here they are a few µs each.
  const changed = candidates.map(({ path }) => {
    try {
      return statSync(path).mtimeMs >= conn.startedAt;
    } catch {
      return false;
    }
  });
  let opened = 0;
  for (const [i, { uri, path, languageId }] of candidates.entries()) {
    if (!changed[i]) continue;
    const file = await readDiskText(path).catch(() => undefined);
    if (!file || conn.documents.get(uri)) continue;
    conn.documents.sync(uri, languageId, file.text, { internal: true, disk: file.state });
    opened++;
  }
  if (opened > 0) await untilChangedFilesBuilt(conn, signal);
  return opened;
}

/**
 * A location request answered on the disk as it is now: when the answer names files that changed
 * since the server could have seen them, they are opened with their current text and the request
 * is asked again (once; the files are open from then on).
 */
export async function requestLocations(
  conn: LspConnection,
  registry: ServerRegistry,
  method: string,
  params: unknown,
  signal: AbortSignal,
  /** Sends the request (the workspace's prefetch cache); straight to the connection when absent. */
  query: QueryFn = (c, m, p, s) => c.request(m, p, { signal: s }),
): Promise<Locations> {
  const first = await query<Locations>(conn, method, params, signal);
  startupMark('query first answer');
  // Opening a file moves the workspace epoch: the second request is never answered from the cache.
  if ((await openChangedFiles(conn, registry, urisOf(first), signal)) === 0) return first;
  return query<Locations>(conn, method, params, signal);
}

export type QueryFn = <R>(conn: LspConnection, method: string, params: unknown, signal: AbortSignal) => Promise<R>;
