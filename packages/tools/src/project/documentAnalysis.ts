import type { LspConnection } from '@agent-lsp/lsp';
import type { NotReadyResult } from './readinessGate.js';

/** How long a query waits for a document's analysis before it answers "not ready". */
export const ANALYSIS_TIMEOUT_MS = 15_000;

/**
 * A server that analyses each document in the background and tells it is done only by publishing
 * the document's diagnostics (ServerDefinition.analysedWhenPublished) answers empty about a text
 * it has not analysed yet: a query on the document waits until the diagnostics of the text it
 * holds are settled, or answers not ready, never an empty answer that looks complete.
 */
export async function untilAnalysed(conn: LspConnection, uri: string, label: string): Promise<NotReadyResult | undefined> {
  if (!conn.server.analysedWhenPublished) return undefined;
  const settled = await conn.diagnostics.settle(uri, ANALYSIS_TIMEOUT_MS);
  if (settled.settledBy !== 'timeout') return undefined;
  return { ready: false, state: 'analysing', progress: { title: `${conn.server.displayName} has not analysed ${label} yet` } };
}
