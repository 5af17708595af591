import type { Position, Range } from 'vscode-languageserver-protocol';
import { diffLines } from 'diff';
import type { TextEdit } from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';

/** The LSP position (UTF-16 characters) of a string offset, counting lines as LSP does. */
export function positionAt(text: string, offset: number): Position {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10 && i + 1 < offset) i++;
      else if (text.charCodeAt(i + 1) === 10) break;
      line++;
      lineStart = i + 1;
    } else if (ch === 10 /* \n */) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}

/** The range of `oldText` in `text`, which must occur there exactly once. */
export function rangeOfText(text: string, oldText: string, label: string): Range {
  if (oldText === '') throw new UserError('invalid_argument', 'old_text is empty: give the exact text to replace (copied from the file, whitespace included).');
  const at = text.indexOf(oldText);
  if (at < 0) throw new UserError('pattern_not_found', `old_text does not occur in ${label} (as the session sees it). Copy it exactly, whitespace included.`);
  if (text.indexOf(oldText, at + 1) >= 0) throw new UserError('pattern_ambiguous', `old_text occurs more than once in ${label}; include more surrounding text so it occurs once.`);
  return { start: positionAt(text, at), end: positionAt(text, at + oldText.length) };
}

/**
 * The fewest whole-line text edits that turn `before` into `after`: one edit per changed block of
 * lines, ranges in `before`'s coordinates (as a WorkspaceEdit wants them).
 */
export function minimalEdits(before: string, after: string): TextEdit[] {
  if (before === after) return [];
  const edits: TextEdit[] = [];
  let offset = 0;
  let pending: { start: number; end: number; text: string } | undefined;
  const flush = () => {
    if (pending) edits.push({ range: { start: positionAt(before, pending.start), end: positionAt(before, pending.end) }, newText: pending.text });
    pending = undefined;
  };
  for (const part of diffLines(before, after)) {
    if (!part.added && !part.removed) {
      flush();
      offset += part.value.length;
      continue;
    }
    pending ??= { start: offset, end: offset, text: '' };
    if (part.removed) {
      offset += part.value.length;
      pending.end = offset;
    } else {
      pending.text += part.value;
    }
  }
  flush();
  return edits;
}
