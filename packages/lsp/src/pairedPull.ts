import { uriToPath } from '@agent-lsp/protocol';
import type { ResponseMessage } from 'vscode-jsonrpc/node';
import { fromTsDiagnostic, TSSERVER_DIAGNOSTIC_COMMANDS, type TsDiagnostic } from './tsserverDiagnostics.js';

type Ask = (side: 'main' | 'companion', method: string, params: unknown) => Promise<ResponseMessage>;

/**
 * A paired server's answer to a diagnostics pull (textDocument/diagnostic): both halves' diagnostics
 * of the document's current text, or an error. The main server's tsserver answers its *DiagnosticsSync
 * commands (scripts, and templates through the plugin); the companion, on its documents, answers
 * its own pull (template syntax, styles). Neither half alone is the document's diagnostics: a push
 * of one half can pair with a stale push of the other, so the pair answers pulls and clients settle
 * on them.
 */
export async function pullPairedDiagnostics(ask: Ask, params: unknown, companionDoc: boolean): Promise<Pick<ResponseMessage, 'result' | 'error'>> {
  const uri = (params as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri;
  const file = uri ? uriToPath(uri) : undefined;
  if (!uri || !file) return { error: { code: -32602, message: 'textDocument/diagnostic needs a file: textDocument.uri' } };
  const [companion, ...tsserver] = await Promise.all([
    companionDoc ? ask('companion', 'textDocument/diagnostic', params) : Promise.resolve(undefined),
    ...TSSERVER_DIAGNOSTIC_COMMANDS.map((command) => ask('main', 'workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: [command, { file, includeLinePosition: false }] })),
  ]);
  const items: unknown[] = [];
  for (const answer of tsserver) {
    const body = (answer.result as { body?: unknown } | null | undefined)?.body;
    if (answer.error || !Array.isArray(body)) return { error: { code: -32603, message: `tsserver gave no diagnostics for ${file}: ${answer.error?.message ?? 'not in a project it knows'}` } };
    for (const d of body as TsDiagnostic[]) items.push(fromTsDiagnostic(d));
  }
  if (companion) {
    if (companion.error) return { error: companion.error };
    const report = companion.result as { kind?: string; items?: unknown[] } | null;
    if (report?.kind !== 'full' || !Array.isArray(report.items)) return { error: { code: -32603, message: `the companion server answered no full diagnostics report for ${file}` } };
    items.push(...report.items);
  }
  return { result: { kind: 'full', items } };
}
