import { basename } from 'node:path';
import { uriToPath } from '@agent-lsp/protocol';
import { CONFIG_RELOAD_FALLBACK_MS } from './configReload.js';
import { inLibraryTarget, serverLibraryDirs } from './libraryWatchTargets.js';
import type { ReadinessContext } from './readinessContext.js';
import { whenServerRead } from './readProbe.js';

/**
 * pyright: a change in its interpreter's site-packages (a package installed, upgraded or removed)
 * is applied five seconds after pyright hears of it (its library reanalysis timer, waiting for the
 * rest of an install); until then an import of the new package is "could not be resolved", settled.
 * So the server counts as reloading from the notification until pyright has applied it: when it
 * invalidates its analysis it asks clients to pull diagnostics again (workspace/diagnostic/refresh),
 * and only a refresh after pyright read the change counts. No refresh within the fallback (a change
 * pyright had no reason to apply): answering again.
 */
export function watchPyrightLibraries({ conn, store, later }: ReadinessContext): void {
  const { readiness, logger } = conn;
  let reloads = 0;
  /** A library reload is under way (the config reload shares the readiness state's `reloading`). */
  let pending = false;
  /** pyright has read the change that began it. */
  let changeRead = false;
  store.add(
    conn.onWatchedFilesSent((changes) => {
      if (readiness.state !== 'ready' && !readiness.reloadingConfig) return;
      const targets = serverLibraryDirs(conn);
      const path = changes.map((c) => uriToPath(c.uri)).find((p) => p !== undefined && inLibraryTarget(targets, p));
      if (!path) return;
      const reload = ++reloads;
      pending = true;
      changeRead = false;
      readiness.reloading({ title: 'reloading its libraries', message: basename(path) });
      whenServerRead(conn, CONFIG_RELOAD_FALLBACK_MS, () => {
        if (reload === reloads) changeRead = true;
      });
      later(CONFIG_RELOAD_FALLBACK_MS, () => {
        if (reload !== reloads || !pending) return;
        pending = false;
        if (!readiness.reloadingConfig) return;
        logger.warn(`${conn.server.displayName} gave no sign of reloading its libraries after ${path} changed within ${CONFIG_RELOAD_FALLBACK_MS / 1000} s; answering again`);
        readiness.ready();
      });
    }),
  );
  store.add(
    conn.onDiagnosticsRefresh(() => {
      if (!pending || !changeRead) return;
      pending = false;
      if (readiness.reloadingConfig) readiness.ready();
    }),
  );
}
