/** Crashes allowed within RESTART_WINDOW_MS before giving up (VS Code's default error handler does the same). */
export const RESTART_LIMIT = 5;
export const RESTART_WINDOW_MS = 3 * 60_000;

/**
 * How many times a crashed server is restarted: at most `limit` crashes within a sliding window,
 * then no more until reset (a restart someone asked for). Used by the front (direct mode) and by
 * the broker for its shared server.
 */
export class RestartBudget {
  private crashes: number[] = [];

  constructor(
    private readonly limit = RESTART_LIMIT,
    private readonly windowMs = RESTART_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a crash: how many fell within the window, and whether one more restart is allowed. */
  crashed(): { recent: number; allowed: boolean } {
    const t = this.now();
    this.crashes = [...this.crashes.filter((c) => t - c < this.windowMs), t];
    return { recent: this.crashes.length, allowed: this.crashes.length <= this.limit };
  }

  get windowMinutes(): number {
    return this.windowMs / 60_000;
  }

  reset(): void {
    this.crashes = [];
  }
}
