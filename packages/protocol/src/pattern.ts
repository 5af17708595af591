import { UserError } from './errors.js';
import { fromLspPosition, splitLines, type UserPosition } from './position.js';

export const CURSOR_MARK = '@@';

/**
 * Finds the position `pattern` designates in `text`. The pattern is a literal snippet of the file;
 * `@@` inside it marks the cursor, otherwise the cursor is the snippet's first character. The
 * snippet must occur exactly once: zero or several matches are errors that say how to fix the call.
 */
export function resolvePositionPattern(text: string, pattern: string, fileLabel: string): UserPosition {
  const markAt = pattern.indexOf(CURSOR_MARK);
  const snippet = markAt >= 0 ? pattern.slice(0, markAt) + pattern.slice(markAt + CURSOR_MARK.length) : pattern;
  const cursorOffset = markAt >= 0 ? markAt : 0;
  if (snippet.length === 0) {
    throw new UserError('invalid_argument', 'position_pattern is empty: give a snippet of the file, with @@ at the cursor.');
  }
  const matches: number[] = [];
  for (let at = text.indexOf(snippet); at >= 0; at = text.indexOf(snippet, at + 1)) {
    matches.push(at);
    if (matches.length > 20) break;
  }
  if (matches.length === 0) {
    throw new UserError(
      'pattern_not_found',
      `position_pattern ${JSON.stringify(pattern)} does not occur in ${fileLabel}. Copy the snippet exactly from the file (whitespace included), or pass line and column.`,
    );
  }
  const lines = splitLines(text);
  if (matches.length > 1) {
    const where = matches
      .slice(0, 5)
      .map((m) => {
        const p = offsetToPosition(text, lines, m + cursorOffset);
        return `${p.line}:${p.column}`;
      })
      .join(', ');
    throw new UserError(
      'pattern_ambiguous',
      `position_pattern ${JSON.stringify(pattern)} occurs ${matches.length > 20 ? 'more than 20' : matches.length} times in ${fileLabel} (at ${where}${matches.length > 5 ? ', …' : ''}). Make the snippet longer so it occurs once, or pass line and column.`,
    );
  }
  return offsetToPosition(text, lines, (matches[0] ?? 0) + cursorOffset);
}

function offsetToPosition(text: string, lines: string[], offset: number): UserPosition {
  const before = text.slice(0, offset);
  const beforeLines = splitLines(before);
  const line = beforeLines.length - 1;
  const character = (beforeLines[line] ?? '').length;
  return fromLspPosition(lines, { line, character });
}
