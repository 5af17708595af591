import { NotificationType } from 'vscode-jsonrpc/node';
import { progressReadiness } from './progressReadiness.js';
import type { ReadinessFamily } from './readinessContext.js';

/**
 * rust-analyzer's own account of its state, sent to clients whose capabilities set
 * `experimental.serverStatusNotification` (clientCapabilities.ts does).
 */
interface RustAnalyzerStatus {
  health: 'ok' | 'warning' | 'error';
  /** Nothing pending: the workspace is loaded, build scripts ran, proc-macros are loaded. */
  quiescent: boolean;
  message?: string;
}

const ServerStatusNotification = new NotificationType<RustAnalyzerStatus>('experimental/serverStatus');

/** How long to wait for a first status before taking the server for one that sends none. */
const STATUS_GRACE_MS = 5_000;

/**
 * rust-analyzer: its `$/progress` ends between phases (fetching the workspace, building scripts,
 * loading proc-macros, indexing), so a moment without progress is not the end of loading: a query
 * in such a gap is answered "content modified", or on a half-loaded workspace. It says when it has
 * nothing pending (`experimental/serverStatus`, quiescent): ready when it is quiescent and no
 * progress is running, indexing again while it reloads (a Cargo.toml changed). One that sends no
 * status (an old build, a wrapper) is read by its progress, as gopls is.
 */
export const rustAnalyzerReadiness: ReadinessFamily = (ctx) => {
  const { conn, store, later } = ctx;
  const { readiness, progress } = conn;
  let status: RustAnalyzerStatus | undefined;
  readiness.indexing({ title: 'loading the workspace' });
  const decide = () => {
    if (!status) return;
    if (status.quiescent && progress.activeCount() === 0) readiness.ready();
    else if (!status.quiescent && readiness.state === 'ready') readiness.indexing({ title: 'reloading the workspace', ...(status.message ? { message: status.message } : {}) });
  };
  store.add(
    conn.onNotification(ServerStatusNotification, (s) => {
      status = s;
      decide();
    }),
  );
  store.add(progress.onProgress((e) => e.kind === 'end' && decide()));
  later(STATUS_GRACE_MS, () => {
    if (!status && readiness.state !== 'ready') progressReadiness(ctx);
  });
};
