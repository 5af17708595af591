import { basename, dirname } from 'node:path';
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol';
import { uriToPath } from '@agent-lsp/protocol';
import type { Readiness } from './readiness.js';
import type { ReadinessContext } from './readinessContext.js';
import { inLibraryTarget, serverLibraryDirs } from './libraryWatchTargets.js';
import { whenServerRead } from './readProbe.js';

/**
 * A project configuration file changed on disk (pyproject.toml, tsconfig.json): the server applies
 * it later than it hears of it (pyright after a 100 ms timer; tsserver when its own file watcher
 * fires, racing our request), and an answer given meanwhile describes the old configuration — files
 * it excluded, options it set. So the server counts as reloading (`readiness.reloading`) from the
 * notification until it has applied the change, and queries wait for that (the broker's and the
 * front's doors, besides the tools' readiness gate).
 */

/** When the server gives no sign of having applied the change, stop waiting after this long. */
export const CONFIG_RELOAD_FALLBACK_MS = 10_000;

/** pyright reads these at a workspace folder's root; it logs "Found N source files" after reloading them. */
const PYRIGHT_CONFIG_FILES = new Set(['pyproject.toml', 'pyrightconfig.json']);

/** pyright logs this once it knows every source file; references sent after it are complete. */
export const PYRIGHT_FOUND_FILES = /^(Found \d+ source files?|No source files found)/;

/**
 * tsconfig.json, tsconfig.build.json, jsconfig.json: anywhere, each may be a project's; and
 * package.json, whose `type`, `exports` and `imports` decide how modules resolve.
 */
const TS_CONFIG_FILE = /^([jt]sconfig(\..+)?\.json|package\.json)$/;

/** The first change of `changes` that `isConfig` accepts, as a path. */
function configChange(changes: readonly FileEvent[], isConfig: (path: string) => boolean): string | undefined {
  for (const change of changes) {
    const path = uriToPath(change.uri);
    if (path && isConfig(path)) return path;
  }
  return undefined;
}

/** pyright's first line of a configuration load (it then finds the source files again). */
const PYRIGHT_LOADING_CONFIG = /^((Loading|Reloading) .*file at |No (configuration|pyproject\.toml) file found)/;

/**
 * pyright: a change of pyproject.toml or pyrightconfig.json at a workspace folder's root makes it
 * reload its configuration and enumerate its files again (about a second later: it waits for more
 * changes), which ends with a "Found N source files" log line. It watches only the file it loaded,
 * so a created one is also announced as a settings change (which makes it look for configuration
 * files again). A change it has no reason to apply gives no such line: the fallback ends the wait.
 *
 * Only a load that began after pyright read the change ends the wait: a reload an earlier change
 * started (our watcher may report one write twice, as created and as changed, a batch apart; a
 * second write may come while pyright reloads the first) logs its own "Found" line, which had ended
 * the wait for the next change (the config file's removal) before pyright applied it. pyright reads
 * its messages in order, so the answer to a request sent after the change marks the point: a load
 * line received after that answer read the disk after the change. While the wait lasts, this is
 * the only thing that makes pyright ready (pyrightReadiness leaves every "Found" line to it), also
 * for a change made during the first indexing, whose "Found" line may come from the old
 * configuration.
 */
export function watchPyrightConfig({ conn, store, later }: ReadinessContext): void {
  const { readiness, logger } = conn;
  let reloads = 0;
  /** The current reload's fence was answered: pyright has read the change. */
  let changeRead = false;
  /** A configuration load began after that. */
  let loadedAfter = false;
  /** pyright found its source files since the change (by a load that may have begun before it). */
  let foundSince = false;
  store.add(
    conn.onWatchedFilesSent((changes) => {
      const folders = new Set(conn.workspaceFolders);
      const isConfig = (p: string) => PYRIGHT_CONFIG_FILES.has(basename(p)) && folders.has(dirname(p));
      const path = configChange(changes, isConfig);
      if (!path || (readiness.state !== 'ready' && readiness.state !== 'indexing')) return;
      const reload = ++reloads;
      changeRead = false;
      loadedAfter = false;
      foundSince = false;
      readiness.reloading({ title: 'reloading its configuration', message: basename(path) });
      // A pyrightconfig.json created beside the pyproject.toml it loaded, or the first one.
      if (changes.some((c) => c.type === FileChangeType.Created && isConfig(uriToPath(c.uri) ?? ''))) {
        conn.notify('workspace/didChangeConfiguration', { settings: null });
      }
      whenServerRead(conn, CONFIG_RELOAD_FALLBACK_MS, () => {
        if (reload === reloads) changeRead = true;
      });
      later(CONFIG_RELOAD_FALLBACK_MS, () => {
        if (reload !== reloads || !readiness.reloadingConfig) return;
        logger.warn(`${conn.server.displayName} gave no sign of applying ${path} within ${CONFIG_RELOAD_FALLBACK_MS / 1000} s; answering again`);
        // Begun during the first indexing, which has not found its files yet: its own "Found" line ends it.
        if (readiness.readyAt === undefined && !foundSince) readiness.reloadEnded();
        else readiness.ready();
      });
    }),
  );
  store.add(
    conn.onLogMessage((m) => {
      if (!readiness.reloadingConfig) return;
      if (PYRIGHT_LOADING_CONFIG.test(m.message)) loadedAfter ||= changeRead;
      else if (PYRIGHT_FOUND_FILES.test(m.message)) {
        foundSince = true;
        if (loadedAfter) readiness.ready();
      }
    }),
  );
}

/**
 * typescript-language-server: tsserver watches its config files and node_modules itself, so a query
 * sent right after a change may reach it before its watcher does. `reloadProjects` (through
 * typescript.tsserverRequest) makes it read every project's configuration again, now, and
 * answers once it has.
 */
export function watchTsserverConfig({ conn, store }: ReadinessContext): void {
  const { readiness, logger } = conn;
  let reloads = 0;
  store.add(
    conn.onWatchedFilesSent((changes) => {
      // A package installed or removed (its node_modules entry, the lockfile npm keeps there): tsserver's
      // own watchers find it seconds later, and resolves the import "Cannot find module" until then.
      const libraries = serverLibraryDirs(conn);
      const path = configChange(changes, (p) => TS_CONFIG_FILE.test(basename(p)) || inLibraryTarget(libraries, p));
      if (!path || readiness.state !== 'ready') return;
      const reload = ++reloads;
      readiness.reloading({ title: 'reloading projects', message: basename(path) });
      const done = () => {
        if (reload === reloads && readiness.reloadingConfig) readiness.ready();
      };
      conn
        .request('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: ['reloadProjects', {}] }, { timeoutMs: CONFIG_RELOAD_FALLBACK_MS })
        .then(done, (err: Error) => {
          logger.warn(`could not make tsserver reload its projects after ${path} changed: ${err.message}`);
          if (conn.isAlive) done();
        });
    }),
  );
}

/**
 * A query's door: while the server is applying a changed configuration file, the query waits
 * (bounded: the strategies above end every reload by CONFIG_RELOAD_FALLBACK_MS).
 */
export async function untilConfigApplied(conn: { readiness: Readiness }): Promise<void> {
  if (!conn.readiness.reloadingConfig) return;
  // Not ready by then: the query goes on, as it would have without the reload.
  await conn.readiness.waitReady({ timeoutMs: CONFIG_RELOAD_FALLBACK_MS * 2 }).catch(() => undefined);
}
