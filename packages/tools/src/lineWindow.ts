import type { Range } from 'vscode-languageserver-protocol';
import { splitLines, UserError } from '@agent-lsp/protocol';
import { oneBased } from './schemas.js';

/** Optional start_line/end_line of tools that read a part of a file (default: all of it). */
export const lineWindowInput = {
  start_line: oneBased('start_line').optional().describe('Default 1.'),
  end_line: oneBased('end_line').optional().describe('Inclusive; default: the last line.'),
};

export interface LineWindow {
  /** 1-based, inclusive. */
  first: number;
  last: number;
  /** The same lines as an LSP range (0-based, end at the start of the line after). */
  range: Range;
  /** Whether the caller gave a line (else the window is the whole file). */
  given: boolean;
}

/** The lines a call asks for, checked against the file. */
export function lineWindow(text: string, args: { start_line?: number | undefined; end_line?: number | undefined }, label: string): LineWindow {
  const lines = splitLines(text);
  const first = args.start_line ?? 1;
  const last = Math.min(args.end_line ?? lines.length, lines.length);
  if (first > lines.length) throw new UserError('invalid_argument', `start_line ${first} is past the end of ${label} (${lines.length} lines).`);
  if (first > last) throw new UserError('invalid_argument', `end_line (${last}) is before start_line (${first}): give start_line ≤ end_line.`);
  const range: Range = { start: { line: first - 1, character: 0 }, end: { line: last - 1, character: (lines[last - 1] ?? '').length } };
  return { first, last, range, given: args.start_line !== undefined || args.end_line !== undefined };
}
