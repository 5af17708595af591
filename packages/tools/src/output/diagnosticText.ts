import type { DiagnosticOut } from '../catalog/schemas.js';

export { diagnosticMessage } from '@agent-lsp/protocol';

/** One diagnostic on one line, as agents read it: `file:line:column severity [code] (source): message`. */
export function diagnosticText(d: DiagnosticOut, withFile = true): string {
  const code = d.code !== undefined ? ` [${d.code}]` : '';
  const src = d.source ? ` (${d.source})` : '';
  return `${withFile ? `${d.file}:` : ''}${d.line}:${d.column} ${d.severity}${code}${src}: ${d.message.replace(/\s*\n\s*/g, ' / ')}`;
}

