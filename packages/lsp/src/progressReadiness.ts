import { toDisposable } from '@agent-lsp/protocol';
import { canary, type ReadinessFamily } from './readinessContext.js';

const PROGRESS_GRACE_MS = 2_000;

/**
 * gopls (and rust-analyzer when it sends no status): ready when the initial `$/progress` work ends; a server that reports no
 * progress at all within a grace period is ready once a canary request answers.
 */
export const progressReadiness: ReadinessFamily = ({ conn, store, later }) => {
  const { readiness, progress } = conn;
  readiness.indexing({ title: 'loading the workspace' });
  let sawProgress = false;
  let pendingReady: NodeJS.Timeout | undefined;
  store.add(toDisposable(() => clearTimeout(pendingReady)));
  store.add(
    progress.onProgress((e) => {
      sawProgress = true;
      clearTimeout(pendingReady);
      if (e.kind === 'end' && progress.activeCount() === 0) {
        pendingReady = setTimeout(() => progress.activeCount() === 0 && readiness.ready(), 300);
      }
    }),
  );
  later(PROGRESS_GRACE_MS, () => {
    if (!sawProgress && readiness.state !== 'ready') canary(conn).then(() => readiness.ready(), () => undefined);
  });
};

/** Any other server: ready once a canary request answers. */
export const canaryReadiness: ReadinessFamily = ({ conn }) => {
  conn.readiness.indexing({ title: 'starting' });
  canary(conn).then(() => conn.readiness.ready(), () => undefined);
};

/** A server that keeps no index: its answers are complete as soon as it has initialized. */
export const initializedReadiness: ReadinessFamily = ({ conn }) => {
  conn.readiness.ready();
};
