import type { Range } from 'vscode-languageserver-protocol';

/**
 * A symbol's text as an editor sees it: its whole lines, with the decorators and doc comments that
 * belong to it, and its body. Pure; lines are 0-based indexes into the file's lines.
 */

export type SyntaxFamily = 'python' | 'braces';

export function syntaxFamily(languageId: string): SyntaxFamily {
  return languageId === 'python' ? 'python' : 'braces';
}

export interface FileLines {
  lines: string[];
  eol: string;
}

export function fileLines(text: string): FileLines {
  return { lines: text.split(/\r?\n/), eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

export function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

const blank = (line: string | undefined) => line === undefined || line.trim() === '';

/**
 * The first line of the symbol with what belongs to it above: decorators (Python `@…`, TS/JS
 * `@…`, multi-line ones included) and, directly above them, a doc comment (`/** … *\/`, a `/* … *\/`
 * block, or a run of `//` or `#` lines).
 */
export function extendedStart(lines: readonly string[], range: Range, family: SyntaxFamily): number {
  let start = range.start.line;
  const first = lines[start] ?? '';
  // Only the first thing on its line owns the lines above it. Words before it are its own
  // (C's `SQLITE_API int`: servers start a declaration's range after an empty macro); code that
  // ends something else (`;`, `}`, `=`) is another statement's.
  if (!/^[\w\s*&]*$/.test(first.slice(0, range.start.character))) return start;
  const indent = indentOf(first).length;
  // Decorators: at the symbol's indentation, starting with '@'; their argument lines deeper or
  // closing brackets at the same indentation.
  for (let k = start - 1; k >= 0; k--) {
    const line = lines[k] as string;
    if (blank(line)) break;
    const ind = indentOf(line).length;
    if (ind < indent) break;
    const t = line.trim();
    if (ind === indent && t.startsWith('@')) {
      start = k;
      continue;
    }
    if (ind > indent || /^[)\]}]/.test(t)) continue;
    break;
  }
  return docCommentStart(lines, start, family);
}

/** Where a comment directly above line `start` begins (or `start` when there is none). */
function docCommentStart(lines: readonly string[], start: number, family: SyntaxFamily): number {
  const above = lines[start - 1];
  if (above === undefined) return start;
  const t = above.trim();
  if (family === 'braces' && t.endsWith('*/')) {
    for (let k = start - 1; k >= 0; k--) {
      const line = (lines[k] as string).trim();
      if (line.startsWith('/*')) return k;
      if (k < start - 1 && line.includes('*/')) return start;
    }
    return start;
  }
  const marker = family === 'python' ? '#' : '//';
  if (!t.startsWith(marker) || t.startsWith('#!')) return start;
  let k = start - 1;
  while (k - 1 >= 0 && (lines[k - 1] as string).trim().startsWith(marker) && !(lines[k - 1] as string).trim().startsWith('#!')) k--;
  return k;
}

/** The last line of the symbol (its range's end line, or the one before when the range ends at column 0). */
export function endLine(range: Range): number {
  return range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
}

/** A symbol's whole lines [start, end], decorators and doc comment included. */
export interface SymbolExtent {
  start: number;
  end: number;
}

export function symbolExtent(lines: readonly string[], range: Range, family: SyntaxFamily): SymbolExtent {
  return { start: extendedStart(lines, range, family), end: endLine(range) };
}

/** Where the body is: `[start, end)` lines replaced, and how its lines are indented. */
export interface BodySpan {
  /** The replaced text: from (line, character) to (endLine, endCharacter), exclusive. */
  from: { line: number; character: number };
  to: { line: number; character: number };
  /** What goes before the body lines (`\n` after an opening brace on the same line). */
  lead: string;
  /** What goes after them (the closing brace's indentation). */
  trail: string;
  indent: string;
}

function indentUnit(lines: readonly string[], family: SyntaxFamily, near: string): string {
  if (near.includes('\t')) return '\t';
  let unit: number | undefined;
  for (const l of lines) {
    if (blank(l)) continue;
    const ind = indentOf(l);
    if (ind.startsWith('\t')) return '\t';
    if (ind.length > 0 && (unit === undefined || ind.length < unit)) unit = ind.length;
  }
  return ' '.repeat(unit ?? (family === 'python' ? 4 : 2));
}

/** Skips a string or comment starting at `i`; returns the index after it, or `i` when none starts there. */
function skipLiteral(text: string, i: number, family: SyntaxFamily): number {
  const c = text[i];
  if (family === 'python' && c === '#') return text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
  if (family === 'braces' && c === '/' && text[i + 1] === '/') return text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
  if (family === 'braces' && c === '/' && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? text.length : end + 2;
  }
  if (c === '"' || c === "'" || c === '`') {
    const triple = family === 'python' && text.startsWith(c.repeat(3), i);
    const close = triple ? c.repeat(3) : c;
    let j = i + close.length;
    while (j < text.length) {
      if (text[j] === '\\') j += 2;
      else if (text.startsWith(close, j)) return j + close.length;
      else if (!triple && c !== '`' && text[j] === '\n') return j;
      else j++;
    }
    return text.length;
  }
  return i;
}

/** Offset of (line, character) in the joined lines. */
function offsetOf(lines: readonly string[], line: number, character: number): number {
  let off = 0;
  for (let i = 0; i < line; i++) off += (lines[i] as string).length + 1;
  return off + character;
}

function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/**
 * Python: the body is every line after the header's `:` (the header may span lines); a one-line
 * `def f(): return 1` has its statement after the colon. Undefined when no header colon is found.
 */
function pythonBody(lines: readonly string[], range: Range, selection: Range): BodySpan | undefined {
  const joined = lines.join('\n');
  const from = offsetOf(lines, selection.end.line, selection.end.character);
  const to = offsetOf(lines, endLine(range), (lines[endLine(range)] as string).length);
  let depth = 0;
  for (let i = from; i < to; ) {
    const skipped = skipLiteral(joined, i, 'python');
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = joined[i] as string;
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ':' && depth === 0) {
      const colon = positionOf(joined, i);
      const header = lines[colon.line] as string;
      const headerIndent = indentOf(lines[selection.start.line] as string);
      const rest = header.slice(colon.character + 1);
      const unit = indentUnit(lines, 'python', headerIndent);
      if (rest.trim() !== '' && !rest.trim().startsWith('#')) {
        // One line: the statement after the colon becomes the body's lines.
        return { from: { line: colon.line, character: colon.character + 1 }, to: { line: colon.line, character: header.length }, lead: '\n', trail: '', indent: headerIndent + unit };
      }
      const last = endLine(range);
      const bodyLines = lines.slice(colon.line + 1, last + 1);
      const firstBody = bodyLines.find((l) => !blank(l));
      const indent = firstBody !== undefined ? indentOf(firstBody) : headerIndent + unit;
      return { from: { line: colon.line, character: header.length }, to: { line: last, character: (lines[last] as string).length }, lead: '\n', trail: '', indent };
    }
    i++;
  }
  return undefined;
}

/** Brace languages: the text between the symbol's last top-level `}` and the `{` it closes. */
function braceBody(lines: readonly string[], range: Range, selection: Range): BodySpan | undefined {
  const joined = lines.join('\n');
  const from = offsetOf(lines, selection.end.line, selection.end.character);
  const to = offsetOf(lines, range.end.line, Math.min(range.end.character, (lines[range.end.line] ?? '').length));
  const stack: number[] = [];
  let body: [number, number] | undefined;
  for (let i = from; i < to; ) {
    const skipped = skipLiteral(joined, i, 'braces');
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = joined[i];
    if (c === '{') stack.push(i);
    else if (c === '}') {
      const open = stack.pop();
      if (open !== undefined && stack.length === 0) body = [open, i];
    }
    i++;
  }
  if (!body) return undefined;
  const open = positionOf(joined, body[0]);
  const close = positionOf(joined, body[1]);
  const closeLine = lines[close.line] as string;
  const headerIndent = indentOf(lines[open.line] as string);
  const closeIndent = closeLine.slice(0, close.character).trim() === '' ? indentOf(closeLine) : headerIndent;
  const inner = joined.slice(body[0] + 1, body[1]).split('\n').filter((l) => !blank(l));
  const indent = inner.length > 0 && close.line > open.line ? indentOf(inner[0] as string) : headerIndent + indentUnit(lines, 'braces', headerIndent);
  return { from: { line: open.line, character: open.character + 1 }, to: close, lead: '\n', trail: `\n${closeIndent}`, indent };
}

export function bodySpan(lines: readonly string[], range: Range, selection: Range, family: SyntaxFamily): BodySpan | undefined {
  return family === 'python' ? pythonBody(lines, range, selection) : braceBody(lines, range, selection);
}

/** Code with its common indentation removed and leading/trailing blank lines dropped. */
export function dedent(code: string): string[] {
  const lines = code.replace(/\r\n/g, '\n').split('\n');
  while (lines.length > 0 && blank(lines[0])) lines.shift();
  while (lines.length > 0 && blank(lines[lines.length - 1])) lines.pop();
  const common = Math.min(...lines.filter((l) => !blank(l)).map((l) => indentOf(l).length));
  return lines.map((l) => (blank(l) ? '' : l.slice(Number.isFinite(common) ? common : 0)));
}

/** Code re-indented at `indent` (blank lines stay empty). */
export function reindent(code: string, indent: string): string[] {
  return dedent(code).map((l) => (l === '' ? '' : indent + l));
}

/**
 * Blank lines to put between inserted code and the target, as the file already separates the
 * target from its neighbours: the blanks above it (or below it), else Python's 2 at top level, 1.
 */
export function separation(lines: readonly string[], extent: SymbolExtent, family: SyntaxFamily, side: 'before' | 'after'): number {
  const countUp = () => {
    let n = 0;
    for (let k = extent.start - 1; k >= 0 && blank(lines[k]); k--) n++;
    return extent.start - n > 0 ? n : 0;
  };
  const countDown = () => {
    let n = 0;
    for (let k = extent.end + 1; k < lines.length && blank(lines[k]); k++) n++;
    return extent.end + n + 1 < lines.length && !blank(lines[extent.end + n + 1]) ? n : 0;
  };
  const first = side === 'before' ? countUp() || countDown() : countDown() || countUp();
  if (first > 0) return Math.min(first, 2);
  return family === 'python' && indentOf(lines[extent.start] ?? '') === '' ? 2 : 1;
}
