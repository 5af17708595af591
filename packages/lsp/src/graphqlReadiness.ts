import type { ReadinessFamily } from './readinessContext.js';
import { findSeedFile, openSeedFile } from './seedFile.js';

/** Logged once the schema and every document of the graphql-config projects are cached. */
const CACHES_READY = /GraphQL Language Server caches initialized/;
/** Logged when the config cannot be loaded: the server then only highlights, and says so. */
const CONFIG_ERROR = /graphql-config error/;

/**
 * graphql-lsp (graphql-language-service-server) reads its graphql-config and caches the schema and
 * documents only when the first file is opened, and answers every request empty until then (an
 * empty hover or definition that looks complete). One .graphql file is opened to make it load;
 * it is ready when its log says the caches are built — or that its config failed, with a warning
 * naming what the server logged.
 */
export const graphqlReadiness: ReadinessFamily = ({ conn, store }) => {
  const { readiness, logger } = conn;
  store.add(
    conn.onLogMessage((m) => {
      if (readiness.state === 'ready') return;
      if (CACHES_READY.test(m.message)) readiness.ready();
      else if (CONFIG_ERROR.test(m.message)) {
        logger.warn(`${conn.server.displayName} could not load its graphql-config and only highlights: ${m.message.split('\n')[1] ?? m.message}`);
        readiness.ready();
      }
    }),
  );
  const seed = findSeedFile(conn.rootDir, Object.keys(conn.server.extensions), 4);
  if (!seed) {
    readiness.ready();
    return;
  }
  readiness.indexing({ title: 'loading graphql-config', message: 'caching the schema and documents' });
  openSeedFile(conn, seed);
};
