// How a field case is judged and counted: an answer is exact (the same set as the ground truth,
// and it says it is complete), partial and labelled (it says it is not complete or not ready, and
// what it gives is part of the truth), or wrong (anything else: the worst bug we can have). Each
// judgement is appended to the JSONL file AGENT_LSP_FIELD_RESULTS names, when it names one
// (`pnpm test:field --full` aggregates them into docs/field.md); the assertion alone fails a test.
import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';

export type Outcome = 'exact' | 'partial-labelled' | 'wrong';

export interface FieldJudgement {
  tool: string;
  corpus: string;
  case: string;
  outcome: Outcome;
  detail?: string;
}

export const FIELD_RESULTS_ENV = 'AGENT_LSP_FIELD_RESULTS';

/** Records the judgement and fails the test on a wrong answer (its detail says how it is wrong). */
export function judge(judgement: FieldJudgement): void {
  const file = process.env[FIELD_RESULTS_ENV];
  if (file) appendFileSync(file, JSON.stringify(judgement) + '\n');
  expect(judgement.outcome, `${judgement.tool} on ${judgement.corpus} (${judgement.case}) is wrong: ${judgement.detail ?? ''}`).not.toBe('wrong');
}

/**
 * Compares two answers given as sets of keys: exact when equal and our answer claims completeness;
 * partial-labelled when it does not claim it and holds nothing the truth lacks; otherwise wrong.
 */
export function compareSets(ours: readonly string[], truth: readonly string[], claimsComplete: boolean): { outcome: Outcome; detail?: string } {
  const mine = new Set(ours);
  const real = new Set(truth);
  const missing = [...real].filter((k) => !mine.has(k));
  const extra = [...mine].filter((k) => !real.has(k));
  const detail = `ours ${mine.size}, truth ${real.size}; missing ${JSON.stringify(missing.slice(0, 5))}${missing.length > 5 ? ` (+${missing.length - 5})` : ''}; extra ${JSON.stringify(extra.slice(0, 5))}${extra.length > 5 ? ` (+${extra.length - 5})` : ''}`;
  if (missing.length === 0 && extra.length === 0) return claimsComplete ? { outcome: 'exact' } : { outcome: 'partial-labelled', detail: `complete answer labelled partial; ${detail}` };
  if (!claimsComplete && extra.length === 0) return { outcome: 'partial-labelled', detail };
  return { outcome: 'wrong', detail };
}
