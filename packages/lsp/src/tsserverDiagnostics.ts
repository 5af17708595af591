import type { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { uriToPath } from '@agent-lsp/protocol';

/** tsserver's commands that answer a file's diagnostics for its current text. */
export const TSSERVER_DIAGNOSTIC_COMMANDS = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync'] as const;

export interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
  source?: string;
}

const TS_SEVERITY: Record<string, DiagnosticSeverity> = { error: 1, warning: 2, message: 3, suggestion: 4 };

export function fromTsDiagnostic(d: TsDiagnostic): Diagnostic {
  const diagnostic: Diagnostic = {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    message: d.text,
    severity: TS_SEVERITY[d.category ?? 'error'] ?? 1,
    source: d.source ?? 'typescript',
  };
  if (d.code !== undefined) diagnostic.code = d.code;
  return diagnostic;
}

/**
 * typescript-language-server pushes without versions and never pushes for a file that stays
 * clean; tsserver's own *DiagnosticsSync commands answer for the current text. Undefined when
 * tsserver's answer is not a list (the server is not tsserver-based after all).
 */
export async function tsserverExact(
  host: { request<R>(method: string, params: unknown, options?: { timeoutMs?: number }): Promise<R> },
  uri: string,
  timeoutMs: number,
): Promise<Diagnostic[] | undefined> {
  const file = uriToPath(uri);
  if (!file) return undefined;
  const results = await Promise.all(
    TSSERVER_DIAGNOSTIC_COMMANDS.map((command) =>
      host.request<{ body?: TsDiagnostic[] } | TsDiagnostic[] | null>('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: [command, { file, includeLinePosition: false }] }, { timeoutMs }),
    ),
  );
  const out: Diagnostic[] = [];
  for (const result of results) {
    const list = Array.isArray(result) ? result : result?.body;
    if (!Array.isArray(list)) return undefined;
    for (const d of list) out.push(fromTsDiagnostic(d));
  }
  return out;
}
