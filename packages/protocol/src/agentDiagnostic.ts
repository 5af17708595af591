import type { Diagnostic } from 'vscode-languageserver-protocol';
import { fromLspRange, type PositionText } from './position.js';

export const AGENT_SEVERITIES = ['error', 'warning', 'information', 'hint'] as const;
export type AgentSeverity = (typeof AGENT_SEVERITIES)[number];

/**
 * A diagnostic as every tool shows it to an agent: 1-based lines and character columns, `file`
 * root-relative (absolute outside the workspace), plain-text message.
 */
export interface AgentDiagnostic {
  file: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  severity: AgentSeverity;
  code?: string | number;
  source?: string;
  message: string;
}

const SEVERITY: Record<number, AgentSeverity> = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };

/** LSP 3.18 allows markup in diagnostic messages; agents get plain text. */
export function diagnosticMessage(m: Diagnostic['message']): string {
  return typeof m === 'string' ? m : (m as { value: string }).value;
}

/**
 * The one conversion of a server diagnostic to the agent's shape. `lines` is the text the server
 * diagnosed (its UTF-16 columns become characters); without it the server's numbers are shifted to
 * 1-based as they are.
 */
export function toAgentDiagnostic(file: string, lines: PositionText | undefined, d: Diagnostic): AgentDiagnostic {
  const r = d.range;
  const out: AgentDiagnostic = {
    file,
    ...(lines === undefined
      ? { line: r.start.line + 1, column: r.start.character + 1, end_line: r.end.line + 1, end_column: r.end.character + 1 }
      : fromLspRange(lines, r)),
    severity: SEVERITY[d.severity ?? 1] ?? 'error',
    message: diagnosticMessage(d.message),
  };
  if (d.code !== undefined) out.code = d.code;
  if (d.source !== undefined) out.source = d.source;
  return out;
}
