import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Whether an answer had anything in it: agents go elsewhere after an empty one. */
export type AnswerStatus = 'empty' | 'some';

export function answerStatus(result: unknown): AnswerStatus {
  return result === null || result === undefined || (Array.isArray(result) && result.length === 0) ? 'empty' : 'some';
}

/** Observations of one (method, status) before its counts re-weight a rule. */
const MIN_OBSERVATIONS = 5;
/** A key's counts are scaled down past this total, so old habits fade. */
const MAX_TOTAL = 200;

/**
 * Per-workspace counts of which query agents made after which answer — (previous method, its
 * answer's status) → next method — kept across runs in the state dir, so the static rules are
 * re-weighted by what agents on this machine actually do next.
 */
export class LearnedTransitions {
  private counts: Record<string, Record<string, number>> = {};
  private previous: string | undefined;
  private changes = 0;

  constructor(private readonly file?: string) {
    if (!file) return;
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      if (isCounts(data)) this.counts = data;
    } catch {
      // No file yet, or an unreadable one: start from nothing.
    }
  }

  /** The agent asked `method` and got an answer of `status`. */
  observe(method: string, status: AnswerStatus): void {
    if (this.previous !== undefined) {
      const next = (this.counts[this.previous] ??= {});
      next[method] = (next[method] ?? 0) + 1;
      const total = Object.values(next).reduce((a, b) => a + b, 0);
      if (total > MAX_TOTAL) for (const k of Object.keys(next)) next[k] = Math.floor((next[k] ?? 0) / 2);
      // Written after the agent's answer has gone out, not in its way.
      if (++this.changes % 20 === 0) setImmediate(() => this.save());
    }
    this.previous = `${method}|${status}`;
  }

  /** How often `next` followed an answer of `status` to `method`; undefined until seen often enough. */
  probability(method: string, status: AnswerStatus, next: string): number | undefined {
    const counts = this.counts[`${method}|${status}`];
    if (!counts) return undefined;
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return total < MIN_OBSERVATIONS ? undefined : (counts[next] ?? 0) / total;
  }

  save(): void {
    if (!this.file || this.changes === 0) return;
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      const temp = `${this.file}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(this.counts));
      renameSync(temp, this.file);
    } catch {
      // Learning is an optimisation: a state dir we cannot write only means starting over next time.
    }
  }
}

function isCounts(x: unknown): x is Record<string, Record<string, number>> {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return false;
  return Object.values(x).every((v) => v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every((n) => typeof n === 'number' && Number.isFinite(n) && n >= 0));
}
