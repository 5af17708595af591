import { BrokerStatusNotification, DisposableStore, toDisposable, type BrokerStatusParams, type Disposable } from '@agent-lsp/protocol';
import { cclsReadiness } from './cclsReadiness.js';
import { ServerUnresponsiveError } from './errors.js';
import { clangdReadiness } from './clangdReadiness.js';
import { graphqlReadiness } from './graphqlReadiness.js';
import type { LspConnection } from './connection.js';
import { canaryReadiness, initializedReadiness, progressReadiness } from './progressReadiness.js';
import { pyrightReadiness } from './pyrightReadiness.js';
import { perlReadiness } from './perlReadiness.js';
import { pyreflyReadiness } from './pyreflyReadiness.js';
import { rustAnalyzerReadiness } from './rustAnalyzerReadiness.js';
import { signalFallbackMs, type ReadinessContext, type ReadinessFamily } from './readinessContext.js';
import type { ReadinessStrategy } from './serverProfile.js';
import { tsgoReadiness, tsserverReadiness, volarReadiness, vtslsReadiness } from './tsserverReadiness.js';

export { CLANGD_OPEN_LIMIT } from './clangdReadiness.js';

/** One small strategy per family of servers (see each file for what that family signals). */
const FAMILIES: Record<ReadinessStrategy, ReadinessFamily> = {
  pyright: pyrightReadiness,
  pyrefly: pyreflyReadiness,
  perl: perlReadiness,
  tsserver: tsserverReadiness,
  tsgo: tsgoReadiness,
  vtsls: vtslsReadiness,
  volar: volarReadiness,
  graphql: graphqlReadiness,
  progress: progressReadiness,
  'rust-analyzer': rustAnalyzerReadiness,
  clangd: clangdReadiness,
  ccls: cclsReadiness,
  canary: canaryReadiness,
  initialized: initializedReadiness,
};

/** Drives `conn.readiness` from the signals its kind of server gives (`stderrLines`: its child's stderr, when it is one). */
export function attachReadinessStrategy(conn: LspConnection, stderrLines?: ReadinessContext['stderrLines']): Disposable {
  const store = new DisposableStore();
  const { readiness, progress, logger } = conn;
  const broker = conn.broker;
  if (broker) {
    // A broker tracks its server's readiness and tells every client.
    const apply = (st: BrokerStatusParams) => {
      if (st.ready) readiness.ready(st.partial);
      else if (st.state === 'unresponsive') readiness.unresponsive(new ServerUnresponsiveError(conn.server.displayName, conn.rootDir, st.progress?.message ?? 'it did not answer the broker\'s health probe'), st.progress);
      else readiness.indexing(st.progress ?? { title: st.state });
    };
    apply(broker);
    store.add(conn.onNotification(BrokerStatusNotification.type, apply));
    return store;
  }

  const timers: NodeJS.Timeout[] = [];
  let signalComing = false;
  const ctx: ReadinessContext = { conn, store, later: (ms, fn) => timers.push(setTimeout(fn, ms)), signalComing: () => (signalComing = true), ...(stderrLines ? { stderrLines } : {}) };
  store.add(toDisposable(() => timers.forEach(clearTimeout)));
  // Only for a server that may give no signal at all and never did. One whose signal always comes
  // is not ready until it comes: pyright answers references before it has found every source file,
  // from the files it loaded so far (16 or 387 of the stdlib's 1,723 os.path.join references), and
  // called ready by this fallback on a loaded machine, such answers went out as complete. Once a
  // server has been ready, a later 'indexing' is its strategy's own word (clangd's changed files
  // not built yet), which a timer from the start must not overrule (it did: an answer from
  // sqlite3.c's previous build, labelled complete).
  const fallbackMs = signalFallbackMs();
  ctx.later(fallbackMs, () => {
    if (readiness.readyAt === undefined && !signalComing) {
      logger.warn(`no readiness signal from ${conn.server.displayName} after ${fallbackMs / 1000} s; treating it as ready`);
      readiness.ready();
    }
  });
  // Whatever the strategy, show the server's own progress while it is not ready.
  store.add(
    progress.onProgress((e) => {
      if (readiness.state !== 'ready' && e.kind !== 'end') readiness.indexing(e.info);
    }),
  );
  FAMILIES[conn.server.readiness](ctx);
  return store;
}
