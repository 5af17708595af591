import type { SemanticTokensLegend } from 'vscode-languageserver-protocol';
import { fromLspPosition } from '@agent-lsp/protocol';

/** One decoded semantic token: 1-based line and character column, length in characters. */
export interface DecodedToken {
  line: number;
  column: number;
  length: number;
  type: string;
  modifiers: string[];
  text: string;
}

/**
 * Decodes LSP's relative integer encoding (5 integers per token: line delta, start delta — from
 * the previous token's start when on the same line —, length, type index, modifier bits) into
 * named tokens, converting UTF-16 offsets to characters with the file's lines.
 */
export function decodeSemanticTokens(data: readonly number[], legend: SemanticTokensLegend, lines: readonly string[]): DecodedToken[] {
  const out: DecodedToken[] = [];
  let line = 0;
  let start = 0;
  for (let i = 0; i + 4 < data.length; i += 5) {
    const deltaLine = data[i] ?? 0;
    const deltaStart = data[i + 1] ?? 0;
    const length = data[i + 2] ?? 0;
    const typeIndex = data[i + 3] ?? 0;
    const bits = data[i + 4] ?? 0;
    line += deltaLine;
    start = deltaLine === 0 ? start + deltaStart : deltaStart;
    const lineText = lines[line] ?? '';
    const from = fromLspPosition(lines, { line, character: start });
    const to = fromLspPosition(lines, { line, character: start + length });
    const modifiers: string[] = [];
    legend.tokenModifiers.forEach((name, bit) => {
      if (bits & (1 << bit)) modifiers.push(name);
    });
    out.push({
      line: from.line,
      column: from.column,
      length: to.column - from.column,
      type: legend.tokenTypes[typeIndex] ?? `unknown(${typeIndex})`,
      modifiers,
      text: lineText.slice(start, start + length),
    });
  }
  return out;
}
