import type { Position, Range } from 'vscode-languageserver-protocol';
import { UserError } from './errors.js';

/**
 * A position as agents and editors show it: 1-based line, 1-based column counted in Unicode
 * code points. The language server's positions are 0-based with UTF-16 code-unit columns; this
 * module is the only place that converts between the two.
 */
export interface UserPosition {
  line: number;
  column: number;
}

export interface UserRange {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

/** Splits text into lines the way LSP counts them (\n, \r\n and \r all end a line). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

function codePointCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** UTF-16 offset of the code point with index `cp` (0-based) in `line`. */
function utf16OffsetOfCodePoint(line: string, cp: number): number {
  let units = 0;
  let i = 0;
  for (const ch of line) {
    if (i === cp) return units;
    units += ch.length;
    i++;
  }
  return units;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Code-point index of a UTF-16 offset in `line`; an offset inside a surrogate pair rounds down. */
function codePointOfUtf16Offset(line: string, offset: number): number {
  // Nearly every line of code: one code point per UTF-16 unit (a thousand references convert
  // without walking each line by code points).
  if (!SURROGATE.test(line)) return Math.max(0, Math.min(offset, line.length));
  let units = 0;
  let cp = 0;
  for (const ch of line) {
    if (units + ch.length > offset) return cp;
    units += ch.length;
    cp++;
  }
  return cp;
}

/**
 * Converts a 1-based (line, column-in-code-points) to an LSP position for `text`.
 * The column may point just past the last character of the line (the end of line); a column
 * further right clamps to that end, as LSP itself defines a character offset past the line's
 * length. Throws a UserError naming the valid range when the line is outside the text.
 */
export function toLspPosition(text: string, pos: UserPosition, what = 'position'): Position {
  const lines = splitLines(text);
  if (!Number.isInteger(pos.line) || !Number.isInteger(pos.column) || pos.line < 1 || pos.column < 1) {
    throw new UserError(
      'invalid_position',
      `${what} ${pos.line}:${pos.column} is invalid: lines and columns are 1-based whole numbers.`,
    );
  }
  if (pos.line > lines.length) {
    // Count lines as `cat -n` does: a final newline does not start another line.
    const shown = lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
    throw new UserError('invalid_position', `${what} ${pos.line}:${pos.column} is past the end of the file, which has ${shown} line(s).`);
  }
  const lineText = lines[pos.line - 1] ?? '';
  const column = Math.min(pos.column, codePointCount(lineText) + 1);
  return { line: pos.line - 1, character: utf16OffsetOfCodePoint(lineText, column - 1) };
}

/**
 * A text's lines as LSP counts them (\n, \r\n and \r end a line), without splitting it into line
 * strings: where each line starts, found once. Converting a thousand references reads a few hundred
 * files, and splitting every one of them into lines was most of that work and of its garbage.
 */
export class LineTable {
  /** UTF-16 offset where each line starts. */
  private readonly starts: number[] = [0];
  /** Whether the text holds a surrogate (an astral character): without one, a UTF-16 offset is a character index. */
  private readonly astral: boolean;

  constructor(private readonly text: string) {
    this.astral = SURROGATE.test(text);
    if (!text.includes('\r')) {
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === LF) this.starts.push(i + 1);
      else if (c === CR) {
        if (text.charCodeAt(i + 1) === LF) i++;
        this.starts.push(i + 1);
      }
    }
  }

  /** Lines in the text (splitLines(text).length). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** Line `n` (0-based) without its line end, '' past the text (splitLines(text)[n] ?? ''). */
  line(n: number): string {
    const end = this.endOf(n);
    return end === undefined ? '' : this.text.slice(this.starts[n], end);
  }

  /** Where line `n`'s text ends (before its line end); undefined for no such line. */
  private endOf(n: number): number | undefined {
    if (!Number.isInteger(n) || n < 0 || n >= this.starts.length) return undefined;
    if (n + 1 === this.starts.length) return this.text.length;
    const next = this.starts[n + 1] as number;
    // The line end before the next line: \n, \r, or \r\n.
    return this.text.charCodeAt(next - 1) === LF && next - 2 >= (this.starts[n] as number) && this.text.charCodeAt(next - 2) === CR ? next - 2 : next - 1;
  }

  /** fromLspPosition on this text. */
  position(pos: Position): UserPosition {
    const end = this.endOf(pos.line);
    if (end === undefined) return { line: pos.line + 1, column: codePointOfUtf16Offset('', pos.character) + 1 };
    const start = this.starts[pos.line] as number;
    // Without surrogates a UTF-16 offset is already a character index, clamped to the line.
    const column = this.astral ? codePointOfUtf16Offset(this.text.slice(start, end), pos.character) : Math.max(0, Math.min(pos.character, end - start));
    return { line: pos.line + 1, column: column + 1 };
  }
}

const LF = 10;
const CR = 13;

/** A text to convert positions in: the text, its lines (splitLines), or its LineTable. */
export type PositionText = string | readonly string[] | LineTable;

/** Converts an LSP position in `text` to 1-based line and code-point column. */
export function fromLspPosition(text: PositionText, pos: Position): UserPosition {
  if (text instanceof LineTable) return text.position(pos);
  const lines = typeof text === 'string' ? splitLines(text) : text;
  return fromLspPositionOnLine(lines[pos.line] ?? '', pos);
}

/** fromLspPosition given only the text of the position's line. */
export function fromLspPositionOnLine(lineText: string, pos: Position): UserPosition {
  return { line: pos.line + 1, column: codePointOfUtf16Offset(lineText, pos.character) + 1 };
}

export function toLspRange(text: string, range: UserRange): Range {
  const start = toLspPosition(text, { line: range.line, column: range.column }, 'start');
  const end = toLspPosition(text, { line: range.end_line, column: range.end_column }, 'end');
  if (end.line < start.line || (end.line === start.line && end.character < start.character)) {
    throw new UserError(
      'invalid_position',
      `range ${range.line}:${range.column}-${range.end_line}:${range.end_column} ends before it starts.`,
    );
  }
  return { start, end };
}

export function fromLspRange(text: PositionText, range: Range): UserRange {
  const lines = typeof text === 'string' ? splitLines(text) : text;
  const s = fromLspPosition(lines, range.start);
  const e = fromLspPosition(lines, range.end);
  return { line: s.line, column: s.column, end_line: e.line, end_column: e.column };
}
