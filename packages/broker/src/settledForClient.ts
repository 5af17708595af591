import type { BrokerSettledDiagnosticsResult } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import type { ClientDocument } from './sharedDocuments.js';

/**
 * The server's last push for `uri` when it settles (after the server read every change that may
 * affect it), as the client holding `own` sees it: with its version, when it holds the server's text.
 */
export function settledForClient(server: LspConnection, own: ClientDocument | undefined, uri: string): BrokerSettledDiagnosticsResult | null {
  const settled = server.diagnostics.settledPush(uri);
  return own && settled && server.documents.get(uri)?.text === own.text ? { version: own.version, diagnostics: settled.diagnostics } : null;
}
