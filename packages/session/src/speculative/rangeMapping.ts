import type { Position, Range, TextEdit } from 'vscode-languageserver-protocol';

/**
 * How positions and ranges move through a sequence of text edits (each in the coordinates of the
 * text it was applied to), and which regions of the current text the edits wrote. Pure; LSP
 * coordinates (0-based lines, UTF-16 characters) throughout.
 */

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

/** Where the text inserted by `edit` ends, in the text after the edit. */
export function insertedEnd(edit: TextEdit): Position {
  const lines = edit.newText.split(/\r\n|\r|\n/);
  const last = lines[lines.length - 1] ?? '';
  const start = edit.range.start;
  return lines.length === 1 ? { line: start.line, character: start.character + last.length } : { line: start.line + lines.length - 1, character: last.length };
}

function shiftPast(p: Position, edit: TextEdit): Position {
  const end = edit.range.end;
  const newEnd = insertedEnd(edit);
  if (p.line === end.line) return { line: newEnd.line, character: newEnd.character + (p.character - end.character) };
  return { line: p.line + (newEnd.line - end.line), character: p.character };
}

/**
 * A position through one edit. `bias` decides a position exactly at an insertion point: a range's
 * start moves past inserted text ('after'), its end stays before it ('before').
 * Undefined when the position lay strictly inside the replaced text.
 */
export function mapPosition(p: Position, edit: TextEdit, bias: 'before' | 'after'): Position | undefined {
  const { start, end } = edit.range;
  if (bias === 'before' && comparePositions(p, start) <= 0) return p;
  if (comparePositions(p, end) >= 0) return shiftPast(p, edit);
  if (comparePositions(p, start) <= 0) return p;
  return undefined;
}

/** Whether a range and an edit's replaced range share text (an insertion only when strictly inside). */
export function touches(r: Range, edited: Range): boolean {
  const rEmpty = comparePositions(r.start, r.end) === 0;
  const eEmpty = comparePositions(edited.start, edited.end) === 0;
  if (eEmpty) return comparePositions(r.start, edited.start) < 0 && comparePositions(edited.start, r.end) < 0;
  if (rEmpty) return comparePositions(edited.start, r.start) < 0 && comparePositions(r.start, edited.end) < 0;
  return comparePositions(r.start, edited.end) < 0 && comparePositions(edited.start, r.end) < 0;
}

/** A range of the original text through every edit; undefined when an edit wrote over it. */
export function mapRange(r: Range, edits: readonly TextEdit[]): Range | undefined {
  let current: Range = r;
  for (const edit of edits) {
    if (touches(current, edit.range)) return undefined;
    const start = mapPosition(current.start, edit, 'after');
    const end = mapPosition(current.end, edit, 'before');
    if (!start || !end) return undefined;
    current = comparePositions(end, start) < 0 ? { start, end: start } : { start, end };
  }
  return current;
}

/**
 * The regions of the current text that edits wrote, after one more edit: existing regions move with
 * the text, and those the edit touches merge with what it inserted.
 */
export function addEditedRegion(regions: readonly Range[], edit: TextEdit): Range[] {
  const { start, end } = edit.range;
  let merged: Range = { start, end: insertedEnd(edit) };
  const out: Range[] = [];
  for (const r of regions) {
    if (comparePositions(r.end, start) < 0) {
      out.push(r);
    } else if (comparePositions(r.start, end) > 0) {
      out.push({ start: shiftPast(r.start, edit), end: shiftPast(r.end, edit) });
    } else {
      const rStart = comparePositions(r.start, start) < 0 ? r.start : start;
      const rEnd = comparePositions(r.end, end) > 0 ? shiftPast(r.end, edit) : merged.end;
      merged = {
        start: comparePositions(rStart, merged.start) < 0 ? rStart : merged.start,
        end: comparePositions(rEnd, merged.end) > 0 ? rEnd : merged.end,
      };
    }
  }
  out.push(merged);
  return out.sort((a, b) => comparePositions(a.start, b.start));
}

/** Whether a range of the current text lies on (or, for a deletion point, at) an edited region. */
export function inEditedRegion(r: Range, regions: readonly Range[]): boolean {
  return regions.some((region) => {
    if (comparePositions(region.start, region.end) === 0) {
      return comparePositions(r.start, region.start) <= 0 && comparePositions(region.start, r.end) <= 0;
    }
    if (comparePositions(r.start, r.end) === 0) {
      return comparePositions(region.start, r.start) <= 0 && comparePositions(r.start, region.end) <= 0;
    }
    return comparePositions(r.start, region.end) < 0 && comparePositions(region.start, r.end) < 0;
  });
}
