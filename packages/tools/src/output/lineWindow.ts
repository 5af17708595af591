import type { Range } from 'vscode-languageserver-protocol';
import { splitLines, toLspPosition, UserError } from '@agent-lsp/protocol';
import { oneBased } from '../catalog/schemas.js';

/**
 * Optional start_line/end_line of tools that read a part of a file (default: all of it), and the
 * original agent-lsp's range columns, which narrow the first and the last line.
 */
export const lineWindowInput = {
  start_line: oneBased('start_line').optional().meta({ default: 1 }),
  start_column: oneBased('start_column').optional().describe('Narrows start_line.'),
  end_line: oneBased('end_line').optional().describe('Inclusive; default: the last line.'),
  end_column: oneBased('end_column').optional().describe('Exclusive; narrows end_line.'),
};

interface WindowArgs {
  start_line?: number | undefined;
  start_column?: number | undefined;
  end_line?: number | undefined;
  end_column?: number | undefined;
}

export interface LineWindow {
  /** 1-based, inclusive. */
  first: number;
  last: number;
  /** The same lines as an LSP range (0-based, end at the start of the line after). */
  range: Range;
  /** Whether the caller gave a line (else the window is the whole file). */
  given: boolean;
  /** Whether a 1-based position is in the window (its columns too). */
  includes(line: number, column: number): boolean;
}

/** The lines a call asks for, checked against the file; a column past the end of its line is the line's end. */
export function lineWindow(text: string, args: WindowArgs, label: string): LineWindow {
  const lines = splitLines(text);
  const first = args.start_line ?? 1;
  const last = Math.min(args.end_line ?? lines.length, lines.length);
  if (first > lines.length) throw new UserError('invalid_argument', `start_line ${first} is past the end of ${label} (${lines.length} lines).`);
  if (first > last) throw new UserError('invalid_argument', `end_line (${last}) is before start_line (${first}): give start_line ≤ end_line.`);
  const lineEnd = (line: number) => [...(lines[line - 1] ?? '')].length + 1;
  const startColumn = Math.min(args.start_column ?? 1, lineEnd(first));
  // An end_line past the end of the file already took the window to the end: its column does not apply.
  const endColumn = args.end_column !== undefined && args.end_line === last ? Math.min(args.end_column, lineEnd(last)) : lineEnd(last);
  if (first === last && endColumn < startColumn) throw new UserError('invalid_argument', `end_column (${endColumn}) is before start_column (${startColumn}) on line ${first}.`);
  const range: Range = { start: toLspPosition(text, { line: first, column: startColumn }), end: toLspPosition(text, { line: last, column: endColumn }) };
  const includes = (line: number, column: number) => line >= first && line <= last && !(line === first && column < startColumn) && !(line === last && column >= endColumn && endColumn < lineEnd(last));
  return { first, last, range, given: args.start_line !== undefined || args.end_line !== undefined, includes };
}
