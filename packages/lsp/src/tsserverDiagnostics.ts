import type { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver-protocol';

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
