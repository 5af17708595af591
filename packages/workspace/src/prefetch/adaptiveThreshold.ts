/** What one observation says about the launch threshold. */
export type Outcome =
  /** A speculation answered an agent call. */
  | 'hit'
  /** A launched speculation went unused for several agent calls: the threshold let too much through. */
  | 'wasted'
  /** An agent call asked what a prediction had guessed but the threshold held back. */
  | 'held_back';

export interface ThresholdOptions {
  initial: number;
  min: number;
  max: number;
  step: number;
  /** How many recent observations the rates are taken over. */
  window: number;
  /** Fewer observations than this leave the threshold where it is. */
  minObservations: number;
}

const DEFAULTS: ThresholdOptions = { initial: 0.5, min: 0.3, max: 0.85, step: 0.05, window: 50, minObservations: 10 };

/**
 * The seed's adaptive threshold: over the last observations, many wasted speculations (false
 * positives) raise it, many calls a held-back prediction would have answered (false negatives)
 * lower it. It moves one step at most per agent query (`adapt`), within [min, max]: the
 * speculations of one answer go unused together, and a burst of them must not carry it from its
 * start to its maximum in one go, shutting out rules that hit.
 */
export class AdaptiveThreshold {
  private readonly options: ThresholdOptions;
  private readonly recent: Outcome[] = [];
  private current: number;
  /** Observations since the threshold last adapted. */
  private fresh = 0;

  constructor(options: Partial<ThresholdOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
    this.current = this.options.initial;
  }

  get value(): number {
    return this.current;
  }

  record(outcome: Outcome): void {
    this.recent.push(outcome);
    if (this.recent.length > this.options.window) this.recent.shift();
    this.fresh++;
  }

  /** One agent query: after new observations, the threshold moves one step if the rates over the window call for it. */
  adapt(): void {
    if (this.fresh === 0 || this.recent.length < this.options.minObservations) return;
    this.fresh = 0;
    const count = (o: Outcome) => this.recent.filter((x) => x === o).length;
    const hits = count('hit');
    const wasted = count('wasted');
    const heldBack = count('held_back');
    const falsePositiveRate = wasted / Math.max(1, hits + wasted);
    const falseNegativeRate = heldBack / Math.max(1, hits + heldBack);
    const { min, max, step } = this.options;
    if (falsePositiveRate > 0.6 && falsePositiveRate > falseNegativeRate) this.current = Math.min(max, round(this.current + step));
    else if (falseNegativeRate > 0.3) this.current = Math.max(min, round(this.current - step));
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
