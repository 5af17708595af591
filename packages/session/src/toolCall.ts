/**
 * What one tool call did, as the audit log records it: filled in by the transaction layer while
 * the call runs (files touched, checkpoint, rollback and why).
 */
export class ToolCall {
  private readonly touched = new Set<string>();
  private rolledBackValue = false;
  private reason: string | undefined;
  private checkpoint: string | undefined;
  private rootValue: string | undefined;
  private cacheAnswers = 0;

  constructor(
    readonly id: string,
    readonly tool: string,
    readonly startedAt: Date,
  ) {}

  /** Real paths of the files this call wrote (or tried to), in first-touch order. */
  get files(): string[] {
    return [...this.touched];
  }
  get rolledBack(): boolean {
    return this.rolledBackValue;
  }
  get rollbackReason(): string | undefined {
    return this.reason;
  }
  get checkpointId(): string | undefined {
    return this.checkpoint;
  }
  /** The workspace root whose journal the call used (root_dir), when it named one. */
  get root(): string | undefined {
    return this.rootValue;
  }

  /** How many of the call's server queries the prefetch cache answered (or joined on their way). */
  get servedFromCache(): number {
    return this.cacheAnswers;
  }

  noteServedFromCache(): void {
    this.cacheAnswers++;
  }

  noteRoot(root: string): void {
    this.rootValue = root;
  }

  noteCommitted(files: readonly string[], checkpointId: string | undefined): void {
    for (const f of files) this.touched.add(f);
    if (checkpointId) this.checkpoint = checkpointId;
  }

  noteRolledBack(files: readonly string[], reason: string): void {
    for (const f of files) this.touched.add(f);
    this.rolledBackValue = true;
    this.reason = reason;
  }
}
