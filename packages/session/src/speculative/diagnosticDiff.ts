import type { Diagnostic, Range, TextEdit } from 'vscode-languageserver-protocol';
import { inEditedRegion, mapRange } from './rangeMapping.js';

export interface DiagnosticsDiff {
  /** In the current (edited) text's coordinates. */
  introduced: Diagnostic[];
  /** In the baseline text's coordinates. */
  resolved: Diagnostic[];
}

function message(d: Diagnostic): string {
  return typeof d.message === 'string' ? d.message : (d.message as { value: string }).value;
}

/** severity + code + source + message: a diagnostic's identity without its place. */
function kindKey(d: Diagnostic): string {
  return JSON.stringify([d.severity ?? 1, d.code ?? null, d.source ?? null, message(d)]);
}

function placedKey(d: Diagnostic, r: Range): string {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character} ${kindKey(d)}`;
}

/**
 * Which diagnostics the edits introduced and which they resolved. Baseline ranges are mapped
 * through the edits first; identity is mapped range + severity + code + source + message, counted
 * as a multiset (a second identical error elsewhere is one introduced; an error that only moved is
 * neither). Then, among what is left, a diagnostic on text the edits wrote matches one of the same
 * kind without its range.
 */
export function diffDiagnostics(baseline: readonly Diagnostic[], edits: readonly TextEdit[], current: readonly Diagnostic[], regions: readonly Range[]): DiagnosticsDiff {
  const byPlace = new Map<string, number[]>();
  const mapped = baseline.map((d) => mapRange(d.range, edits));
  baseline.forEach((d, i) => {
    const r = mapped[i];
    if (!r) return;
    const key = placedKey(d, r);
    byPlace.set(key, [...(byPlace.get(key) ?? []), i]);
  });
  const matchedBaseline = new Set<number>();
  const unmatchedCurrent: Diagnostic[] = [];
  for (const d of current) {
    const i = byPlace.get(placedKey(d, d.range))?.shift();
    if (i === undefined) unmatchedCurrent.push(d);
    else matchedBaseline.add(i);
  }
  const introduced: Diagnostic[] = [];
  for (const d of unmatchedCurrent) {
    const onEdit = inEditedRegion(d.range, regions);
    const i = baseline.findIndex((b, j) => {
      if (matchedBaseline.has(j) || kindKey(b) !== kindKey(d)) return false;
      const r = mapped[j];
      return onEdit || r === undefined || inEditedRegion(r, regions);
    });
    if (i < 0) introduced.push(d);
    else matchedBaseline.add(i);
  }
  const resolved = baseline.filter((_, i) => !matchedBaseline.has(i));
  return { introduced, resolved };
}
