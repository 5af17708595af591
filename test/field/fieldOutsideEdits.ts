// Outside edits between two calls, on a corpus: the files holding references to a symbol are
// changed on disk as a user, sed or git would — comment lines inserted by `sed -i`, many files
// switched by `git checkout`, a file deleted then restored, a file written beside and renamed over
// the original; and a file deleted and restored again and again, each time asked at a moment of
// the watchers' batch window. The truth after each is the edit applied to the truth before it
// (inserted lines move the references below them; a deleted file has none), computed here, not
// asked of a server.
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { compareSets, type Outcome } from './fieldOutcome.js';
import { ourReferences, trueReferences, type FieldContext, type Target } from './fieldSuite.js';

export type OutsideEditKind = 'sed' | 'git checkout' | 'delete and restore' | 'delete and restore, repeated' | 'rename over';

type Record = (tool: string, label: string, result: { outcome: Outcome; detail?: string }) => void;

/** How many files `git checkout` switches at most (every reference file up to this). */
const CHECKOUT_FILES = 40;

/** How often 'delete and restore, repeated' deletes and restores. */
const REPEATS = 80;
/**
 * How long after each of its edits it asks (ms), round by round: around the watchers' 100 ms
 * batch, so that some question arrives while the watcher is delivering the batch (one question
 * per edit: a question sent earlier would deliver the edit itself, at its own door).
 */
const askedAfterMs = (round: number, step: number): number => 90 + ((round * 7 + step * 13) % 23);
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `file:line:col-endLine:endCol` keys with the references in `file` moved down `by` lines. */
export function shifted(keys: readonly string[], file: string, by: number): string[] {
  return keys.map((k) => {
    const m = /^(.*):(\d+):(\d+)-(\d+):(\d+)$/.exec(k);
    if (!m || m[1] !== file) return k;
    return `${m[1]}:${Number(m[2]) + by}:${m[3]}-${Number(m[4]) + by}:${m[5]}`;
  });
}

const fileOf = (key: string): string => /^(.*):\d+:\d+-\d+:\d+$/.exec(key)![1]!;

function git(root: string, args: string[]): void {
  const r = spawnSync('git', ['-c', 'user.name=field', '-c', 'user.email=field@example.invalid', ...args], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

export function outsideEditCases(ctx: FieldContext, target: Target, kinds: readonly OutsideEditKind[], record: Record): void {
  const root = (): string => ctx.corpus.root;
  const comment = (): string => ctx.spec.comment;
  // Asked once, before any edit: afterwards the server asked directly has its own lag to catch up
  // (every case puts the files back, so the truth before one is the truth before the next).
  let asked: string[] | undefined;
  /** The reference files other than the symbol's own file, and the truth before any edit. */
  async function before(): Promise<{ truth: string[]; files: string[] }> {
    const truth = (asked ??= await trueReferences(ctx, target));
    const files = ctx.spec.outsideFiles ?? [...new Set(truth.map(fileOf))].filter((f) => f !== target.file && !f.startsWith('..')).sort();
    if (files.length === 0) throw new Error(`no reference to ${target.needle} outside ${target.file}`);
    return { truth, files };
  }
  async function check(label: string, expected: string[]): Promise<void> {
    const ours = await ourReferences(ctx, target);
    const result = compareSets(ours.keys, expected, ours.complete);
    const known = result.outcome === 'wrong' && ctx.spec.outsideDefect ? ` [${ctx.spec.outsideDefect}]` : '';
    record('find_references after outside edits', `${target.needle}, ${label}`, { ...result, detail: `${result.detail ?? ''}${known}` });
  }

  if (kinds.includes('sed')) {
    it(`find_references after sed -i inserted lines into a file with references to "${target.needle}"`, async () => {
      const { truth, files } = await before();
      const file = files[0]!;
      const original = readFileSync(join(root(), file), 'utf8');
      try {
        const r = spawnSync('sed', ['-i', '-e', `1i ${comment()} field: line one inserted by sed`, '-e', `1i ${comment()} field: line two`, file], { cwd: root() });
        if (r.status !== 0) throw new Error(`sed failed: ${String(r.stderr)}`);
        await check(`after sed -i on ${file}`, shifted(truth, file, 2));
      } finally {
        writeFileSync(join(root(), file), original);
      }
      await check(`after ${file} was put back`, truth);
    });
  }

  if (kinds.includes('git checkout')) {
    it(`find_references after git checkout switched many files with references to "${target.needle}"`, async () => {
      const { truth, files } = await before();
      const switched = files.slice(0, CHECKOUT_FILES);
      git(root(), ['init', '-q', '-b', 'base']);
      git(root(), ['add', '-A']);
      git(root(), ['commit', '-q', '-m', 'base']);
      git(root(), ['checkout', '-q', '-b', 'shifted']);
      for (const f of switched) writeFileSync(join(root(), f), `${comment()} field: inserted\n${comment()} field: inserted\n${comment()} field: inserted\n${readFileSync(join(root(), f), 'utf8')}`);
      git(root(), ['commit', '-q', '-a', '-m', 'shifted']);
      git(root(), ['checkout', '-q', 'base']);
      try {
        await check(`git checkout base (${switched.length} files back)`, truth);
        git(root(), ['checkout', '-q', 'shifted']);
        await check(`git checkout of ${switched.length} file(s) with 3 lines inserted`, switched.reduce((keys, f) => shifted(keys, f, 3), truth));
      } finally {
        git(root(), ['checkout', '-q', 'base']);
        rmSync(join(root(), '.git'), { recursive: true, force: true });
      }
      await check('git checkout base again', truth);
    });
  }

  if (kinds.includes('delete and restore')) {
    it(`find_references after a file with references to "${target.needle}" was deleted, then restored`, async () => {
      const { truth, files } = await before();
      const file = files[0]!;
      const path = join(root(), file);
      const original = readFileSync(path, 'utf8');
      try {
        rmSync(path);
        await check(`${file} deleted`, truth.filter((k) => fileOf(k) !== file));
      } finally {
        writeFileSync(path, original);
      }
      await check(`${file} restored`, truth);
    });
  }

  if (kinds.includes('delete and restore, repeated')) {
    it(`find_references after a file with references to "${target.needle}" was deleted and restored ${REPEATS} times, asked within the watcher's batch window`, async () => {
      const { truth, files } = await before();
      const file = files[0]!;
      const path = join(root(), file);
      const original = readFileSync(path, 'utf8');
      const gone = truth.filter((k) => fileOf(k) !== file);
      // One judgement for the case: the first wrong answer, else the first partial one, else exact.
      const results: { label: string; outcome: Outcome; detail?: string }[] = [];
      const ask = async (label: string, afterMs: number, expected: string[]): Promise<void> => {
        await pause(afterMs);
        const ours = await ourReferences(ctx, target);
        results.push({ label: `${label}, asked ${afterMs} ms after`, ...compareSets(ours.keys, expected, ours.complete) });
      };
      try {
        for (let round = 1; round <= REPEATS && !results.some((r) => r.outcome === 'wrong'); round++) {
          try {
            rmSync(path);
            await ask(`round ${round}: ${file} deleted`, askedAfterMs(round, 0), gone);
          } finally {
            writeFileSync(path, original);
          }
          await ask(`round ${round}: ${file} restored`, askedAfterMs(round, 1), truth);
        }
      } finally {
        writeFileSync(path, original);
      }
      const worst = results.find((r) => r.outcome === 'wrong') ?? results.find((r) => r.outcome === 'partial-labelled') ?? results[0]!;
      const counts = `${results.filter((r) => r.outcome === 'exact').length} of ${results.length} answers exact`;
      record('find_references after outside edits', `${target.needle}, ${file} deleted and restored ${REPEATS} times`, {
        outcome: worst.outcome,
        detail: `${counts}${worst.outcome === 'exact' ? '' : `; ${worst.label}: ${worst.detail ?? ''}`}`,
      });
    });
  }

  if (kinds.includes('rename over')) {
    it(`find_references after a file with references to "${target.needle}" was written beside and renamed over`, async () => {
      const { truth, files } = await before();
      const file = files[files.length - 1]!;
      const path = join(root(), file);
      const original = readFileSync(path, 'utf8');
      try {
        writeFileSync(`${path}.field-save`, `${comment()} field: saved by rename\n${original}`);
        renameSync(`${path}.field-save`, path);
        await check(`${file} renamed over with a line inserted`, shifted(truth, file, 1));
      } finally {
        writeFileSync(path, original);
      }
      await check(`${file} put back`, truth);
    });
  }
}
