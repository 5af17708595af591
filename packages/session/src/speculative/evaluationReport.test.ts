import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import type { SettledBy } from '@agent-lsp/lsp';
import type { FileEvaluation } from './evaluator.js';
import { reportEvaluation } from './evaluationReport.js';

const error = (line: number, message: string): Diagnostic => ({ range: { start: { line, character: 0 }, end: { line, character: 3 } }, message, severity: 1, source: 'test' });
const TEXT = 'a\nb\nc\nd\n';

/** An edited file whose edit (a comment line at the top) changes no diagnostic but those given. */
function edited(before: Diagnostic[], after: Diagnostic[], settledBy: SettledBy = 'version', baselineSettledBy: SettledBy = 'version'): FileEvaluation {
  return {
    path: '/ws/edited.py',
    dependent: false,
    baseText: TEXT,
    text: `x\n${TEXT}`,
    edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'x\n' }],
    regions: [{ start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }],
    baseline: { diagnostics: before, settledBy: baselineSettledBy },
    diagnostics: after.map((d) => ({ ...d, range: { start: { line: d.range.start.line + 1, character: 0 }, end: { line: d.range.end.line + 1, character: 3 } } })),
    settledBy,
  };
}

function dependent(name: string, before: Diagnostic[], after: Diagnostic[], settledBy: SettledBy, baselineSettledBy: SettledBy = 'version'): FileEvaluation {
  return { path: `/ws/${name}`, dependent: true, baseText: TEXT, text: TEXT, edits: [], regions: [], baseline: { diagnostics: before, settledBy: baselineSettledBy }, diagnostics: after, settledBy };
}

const search = (found: number, unreached: string[] = []) => ({ found, unreached, problems: [], budgetMs: 32_000 });
const label = (p: string) => p.replace('/ws/', '');

describe('reportEvaluation: only files examined count', () => {
  it('a dependent whose diagnostics timed out contributes nothing, is listed with why, and makes the answer partial', () => {
    // The timed-out dependent "has no errors" only because none arrived: its three are not resolved.
    const stale = dependent('stale.py', [error(0, 'one'), error(1, 'two'), error(2, 'three')], [], 'timeout');
    const broken = dependent('broken.py', [], [error(1, 'Argument missing')], 'version');
    const e = reportEvaluation('workspace', { files: [edited([], []), stale, broken], dependents: search(2) }, 10, label);
    expect(e.errorsResolved).toEqual([]);
    expect(e.errorsIntroduced.map((d) => [d.file, d.message])).toEqual([['broken.py', 'Argument missing']]);
    expect(e.netDelta).toBe(1);
    expect(e.confidence).toBe('partial');
    expect(e.notExamined).toBe(1);
    expect(e.files.find((f) => f.path === '/ws/stale.py')).toMatchObject({ examined: false, whyNotExamined: 'its diagnostics with the edits did not settle (timeout)' });
    expect(e.files.find((f) => f.path === '/ws/broken.py')).toMatchObject({ examined: true });
    expect(e.dependents).toMatchObject({ found: 2, examined: 1, notExamined: 1, notExaminedSample: ['/ws/stale.py'] });
    expect(e.notes.join('\n')).toMatch(/1 file\(s\) were not examined and count for nothing .*stale\.py \(its diagnostics with the edits did not settle \(timeout\)\)/);
  });

  it('a dependent whose baseline did not settle cannot be compared either, nor one settled only by a quiet window', () => {
    const noBaseline = dependent('nobase.py', [], [error(0, 'old error')], 'version', 'timeout');
    const quiet = dependent('quiet.py', [error(0, 'x')], [], 'quiet');
    const e = reportEvaluation('workspace', { files: [edited([], []), noBaseline, quiet], dependents: search(2) }, 10, label);
    expect(e.errorsIntroduced).toEqual([]);
    expect(e.errorsResolved).toEqual([]);
    expect(e.netDelta).toBe(0);
    expect(e.confidence).toBe('partial');
    expect(e.notExamined).toBe(2);
    expect(e.files.filter((f) => !f.examined).map((f) => f.whyNotExamined)).toEqual(['its diagnostics before the edits (baseline) did not settle (timeout)', 'its diagnostics with the edits did not settle (quiet)']);
  });

  it('an edited file that did not settle counts for nothing too (its old pushes are not an answer for the new text)', () => {
    const e = reportEvaluation('file', { files: [edited([error(1, 'fixed?')], [], 'timeout')] }, 10, label);
    expect(e).toMatchObject({ errorsIntroduced: [], errorsResolved: [], netDelta: 0, confidence: 'partial', timeout: true, notExamined: 1 });
  });

  it('dependents past the budget and unsettled ones add up in not_examined', () => {
    const stale = dependent('stale.py', [error(0, 'one')], [], 'timeout');
    const e = reportEvaluation('workspace', { files: [edited([], []), stale], dependents: search(4, ['/ws/far1.py', '/ws/far2.py']) }, 10, label);
    expect(e.dependents).toMatchObject({ found: 4, examined: 0, notExamined: 3 });
    expect(e.notExamined).toBe(3);
    expect(e.notes.join('\n')).toMatch(/2 of 4 dependent files were not examined within the 32 s budget/);
  });

  it('all settled: high, and errors counted as before', () => {
    const dep = dependent('dep.py', [error(0, 'gone')], [], 'version');
    const e = reportEvaluation('workspace', { files: [edited([], []), dep], dependents: search(1) }, 10, label);
    expect(e).toMatchObject({ netDelta: -1, confidence: 'high', notExamined: 0 });
  });

  it('file scope: other files naming a changed declaration are counted as not checked, and the answer is partial', () => {
    const unchecked = { declarations: ['force_str (encoding.py)'], paths: ['/ws/a.py', '/ws/b.py'], problems: [] };
    const e = reportEvaluation('file', { files: [edited([], [])], unchecked }, 10, label);
    expect(e).toMatchObject({ netDelta: 0, confidence: 'partial', notExamined: 2, changedDeclarations: ['force_str (encoding.py)'] });
    expect(e.dependents).toMatchObject({ found: 2, examined: 0, notExamined: 2 });
    expect(e.notes.join('\n')).toMatch(/change the declaration of force_str \(encoding\.py\), named in 2 other file\(s\) that file scope did not check: a\.py, b\.py\. Pass scope: "workspace"/);
    const quiet = reportEvaluation('file', { files: [edited([], [])], unchecked: { declarations: ['f (m.py)'], paths: [], problems: [] } }, 10, label);
    expect(quiet).toMatchObject({ confidence: 'high', notExamined: 0 });
  });
});
