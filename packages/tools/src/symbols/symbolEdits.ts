import type { Range, TextEdit } from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';
import { bodySpan, indentOf, reindent, separation, type SymbolExtent, type SyntaxFamily } from './symbolText.js';

/**
 * The text edits of symbol editing, computed on a file's lines. Pure: each returns one LSP
 * TextEdit on the text the lines came from (so the diagnostic diff can map ranges through it).
 */

export interface SymbolSite {
  lines: readonly string[];
  eol: string;
  range: Range;
  selectionRange: Range;
  family: SyntaxFamily;
  extent: SymbolExtent;
}

const isBlank = (l: string | undefined) => l !== undefined && l.trim() === '';

/** Lines of a file that hold text (a trailing newline leaves an empty last element, not a line). */
function lineCount(lines: readonly string[]): number {
  return lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
}

/** Replaces whole lines [from, to) by `newLines` (each ending with eol). */
export function replaceLines(lines: readonly string[], eol: string, from: number, to: number, newLines: readonly string[]): TextEdit {
  if (to < lines.length) {
    return { range: { start: { line: from, character: 0 }, end: { line: to, character: 0 } }, newText: newLines.map((l) => l + eol).join('') };
  }
  // Through the last line of a file without a final newline.
  const lastLine = lines.length - 1;
  const end = { line: lastLine, character: (lines[lastLine] as string).length };
  if (from > lastLine) return { range: { start: end, end }, newText: newLines.map((l) => eol + l).join('') };
  return { range: { start: { line: from, character: 0 }, end }, newText: newLines.join(eol) };
}

/** The body (everything after the signature) replaced by `newBody`, re-indented to the body's indentation. */
export function replaceBodyEdit(site: SymbolSite, newBody: string): TextEdit {
  const span = bodySpan(site.lines, site.range, site.selectionRange, site.family);
  if (!span) throw new UserError('invalid_argument', `This symbol has no body to replace (no ${site.family === 'python' ? '`:` ending its header' : '{ … } block'} was found). Use insert_after_symbol or apply_edit.`);
  const body = reindent(newBody, span.indent);
  if (body.length === 0 && site.family === 'python') throw new UserError('invalid_argument', 'new_body is empty; a Python body needs a statement (use `pass`).');
  const text = body.length === 0 ? span.trail.replace(/\n/g, site.eol) : span.lead.replace(/\n/g, site.eol) + body.join(site.eol) + span.trail.replace(/\n/g, site.eol);
  return { range: { start: span.from, end: span.to }, newText: text };
}

/** `code` as new lines before the target (above its decorators and doc comment) or after it, at its indentation. */
export function insertEdit(site: SymbolSite, code: string, side: 'before' | 'after'): TextEdit {
  const indent = indentOf(site.lines[site.extent.start] ?? '');
  const lines = reindent(code, indent);
  if (lines.length === 0) throw new UserError('invalid_argument', 'code is empty: give the code to insert.');
  const blanks = Array<string>(separation(site.lines, site.extent, site.family, side)).fill('');
  if (side === 'before') return replaceLines(site.lines, site.eol, site.extent.start, site.extent.start, [...lines, ...blanks]);
  return replaceLines(site.lines, site.eol, site.extent.end + 1, site.extent.end + 1, [...blanks, ...lines]);
}

/**
 * The target's lines removed, decorators and doc comment with them. The blank lines around it
 * close up to the larger of the two gaps, or to none where it began or ended a block or the file.
 */
export function deleteEdit(site: SymbolSite): TextEdit {
  const { lines, extent } = site;
  const count = lineCount(lines);
  let above = 0;
  while (extent.start - above - 1 >= 0 && isBlank(lines[extent.start - above - 1])) above++;
  let below = 0;
  while (extent.end + below + 1 < count && isBlank(lines[extent.end + below + 1])) below++;
  const hasPrevious = extent.start - above > 0;
  const hasNext = extent.end + below + 1 < count;
  const keep = hasPrevious && hasNext && above > 0 && below > 0 ? Math.max(above, below) : 0;
  const from = hasPrevious ? extent.start - above : extent.start;
  const to = extent.end + below + 1;
  return replaceLines(lines, site.eol, from, to, Array<string>(keep).fill(''));
}
