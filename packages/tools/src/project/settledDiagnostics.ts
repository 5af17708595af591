import type { DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { fullReportItems, type LspConnection, type SettledDiagnostics } from '@agent-lsp/lsp';
import type { ToolContext } from '../catalog/toolDefinition.js';

/**
 * The diagnostics of an open document for its current text, as conn.diagnostics.settle gives
 * them, except that a server answering pulls is asked through the workspace's query (the prefetch
 * cache: a pull on the same state of the workspace answers the same, and a speculation may have
 * asked it already). The pull is the collector's own: no previous result id, asked again when the
 * server cancels it while it recomputes (the query asks again).
 */
export async function settledDiagnostics(ctx: ToolContext, conn: LspConnection, uri: string, timeoutMs: number): Promise<SettledDiagnostics> {
  if (!conn.supportsPullDiagnostics()) return conn.diagnostics.settle(uri, timeoutMs);
  const report = await ctx.workspace.query<DocumentDiagnosticReport>(conn, 'textDocument/diagnostic', { textDocument: { uri } }, ctx.signal, timeoutMs);
  const diagnostics = fullReportItems(report) ?? conn.diagnostics.lastPushed().get(uri) ?? [];
  return { uri, diagnostics, settledBy: 'pull' };
}
