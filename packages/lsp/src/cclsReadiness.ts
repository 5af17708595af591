import { toDisposable } from '@agent-lsp/protocol';
import type { ReadinessFamily } from './readinessContext.js';

/** What `$ccls/info` says of its indexing pipeline and project. */
interface CclsInfo {
  pipeline?: { enqueued?: number; completed?: number };
  project?: { entries?: number };
}

const POLL_MS = 200;

/**
 * ccls indexes every entry of its project (compile_commands.json, .ccls, or the directory's
 * sources) in the background after initialize, and says nothing when it is done: until a file is
 * indexed, a definition in it is answered with its declaration (a header), which looks complete.
 * `$ccls/info` counts the pipeline's enqueued and completed index jobs: ready once every enqueued
 * job is completed (or the project has no entries). A ccls that cannot say is taken as ready.
 */
export const cclsReadiness: ReadinessFamily = ({ conn, store }) => {
  const { readiness } = conn;
  let stopped = false;
  store.add(toDisposable(() => (stopped = true)));
  readiness.indexing({ title: 'indexing', message: 'ccls' });
  const poll = async (): Promise<void> => {
    while (!stopped && conn.isAlive && readiness.state !== 'ready') {
      const info = await conn.request<CclsInfo | null>('$ccls/info', {}, { timeoutMs: 10_000 }).catch(() => undefined);
      const enqueued = info?.pipeline?.enqueued;
      const completed = info?.pipeline?.completed;
      if (enqueued === undefined || completed === undefined) return readiness.ready();
      if (enqueued > 0 ? completed >= enqueued : (info?.project?.entries ?? 0) === 0) return readiness.ready();
      readiness.indexing({ title: 'indexing', message: `${completed}/${enqueued} files`, percentage: Math.floor((100 * completed) / enqueued) });
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  void poll();
};
