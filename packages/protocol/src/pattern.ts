import { UserError } from './errors.js';
import { fromLspPosition, splitLines, type UserPosition } from './position.js';

export const CURSOR_MARK = '@@';

/** 1-based, inclusive lines a position_pattern must lie within (line_scope_start/line_scope_end). */
export interface LineScope {
  start?: number | undefined;
  end?: number | undefined;
}

/**
 * Finds the position `pattern` designates in `text`. The pattern is a literal snippet of the file;
 * `@@` inside it marks the cursor, otherwise the cursor is the snippet's first character. The
 * snippet must occur exactly once (within `scope`, when given: the whole snippet inside those
 * lines): zero or several matches are errors that say how to fix the call.
 */
export function resolvePositionPattern(text: string, pattern: string, fileLabel: string, scope: LineScope = {}): UserPosition {
  const markAt = pattern.indexOf(CURSOR_MARK);
  const snippet = markAt >= 0 ? pattern.slice(0, markAt) + pattern.slice(markAt + CURSOR_MARK.length) : pattern;
  const cursorOffset = markAt >= 0 ? markAt : 0;
  if (snippet.length === 0) {
    throw new UserError('invalid_argument', 'position_pattern is empty: give a snippet of the file, with @@ at the cursor.');
  }
  const lines = splitLines(text);
  const scoped = scope.start !== undefined || scope.end !== undefined;
  const first = scope.start ?? 1;
  const last = scope.end ?? lines.length;
  if (first > last) {
    throw new UserError('invalid_argument', `line_scope_end (${last}) is before line_scope_start (${first}): give lines with start ≤ end.`);
  }
  const within = (at: number): boolean => {
    if (!scoped) return true;
    const startLine = lineOf(text, at);
    const endLine = startLine + (snippet.match(/\r\n|\r|\n/g)?.length ?? 0);
    return startLine >= first && endLine <= last;
  };
  const where = scoped ? ` within lines ${first}-${last} (line_scope_start/line_scope_end)` : '';
  const matches: number[] = [];
  for (let at = text.indexOf(snippet); at >= 0; at = text.indexOf(snippet, at + 1)) {
    if (!within(at)) continue;
    matches.push(at);
    if (matches.length > 20) break;
  }
  if (matches.length === 0) {
    throw new UserError(
      'pattern_not_found',
      `position_pattern ${JSON.stringify(pattern)} does not occur in ${fileLabel}${where}. Copy the snippet exactly from the file (whitespace included), or pass line and column.`,
    );
  }
  if (matches.length > 1) {
    const at = matches
      .slice(0, 5)
      .map((m) => {
        const p = offsetToPosition(text, lines, m + cursorOffset);
        return `${p.line}:${p.column}`;
      })
      .join(', ');
    throw new UserError(
      'pattern_ambiguous',
      `position_pattern ${JSON.stringify(pattern)} occurs ${matches.length > 20 ? 'more than 20' : matches.length} times in ${fileLabel}${where} (at ${at}${matches.length > 5 ? ', …' : ''}). Make the snippet longer so it occurs once, narrow it with line_scope_start/line_scope_end, or pass line and column.`,
    );
  }
  return offsetToPosition(text, lines, (matches[0] ?? 0) + cursorOffset);
}

/** The 1-based line of a UTF-16 offset. */
function lineOf(text: string, offset: number): number {
  return splitLines(text.slice(0, offset)).length;
}

function offsetToPosition(text: string, lines: string[], offset: number): UserPosition {
  const before = text.slice(0, offset);
  const beforeLines = splitLines(before);
  const line = beforeLines.length - 1;
  const character = (beforeLines[line] ?? '').length;
  return fromLspPosition(lines, { line, character });
}
