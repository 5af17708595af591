/**
 * A runner's output, capped: the first `headChars` and the last `tailChars` characters are kept,
 * what lies between is counted and dropped. Test runners print the failures at the end and the
 * command's start (configuration, collection) at the beginning; the middle is progress.
 */
export class OutputCap {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(
    private readonly headChars: number,
    private readonly tailChars: number,
  ) {}

  push(text: string): void {
    this.total += text.length;
    if (this.head.length < this.headChars) {
      const room = this.headChars - this.head.length;
      this.head += text.slice(0, room);
      text = text.slice(room);
    }
    if (text === '') return;
    this.tail += text;
    // Trim in batches, not on every push: the tail is cut to size when read.
    if (this.tail.length > this.tailChars * 2) this.tail = this.tail.slice(-this.tailChars);
  }

  get totalChars(): number {
    return this.total;
  }

  get truncated(): boolean {
    return this.total > this.head.length + Math.min(this.tail.length, this.tailChars);
  }

  /** Head and tail, with a line saying how much was left out between them. */
  text(): string {
    const tail = this.tail.slice(-this.tailChars);
    const omitted = this.total - this.head.length - tail.length;
    if (omitted <= 0) return this.head + tail;
    return `${this.head}\n… ${omitted} characters omitted …\n${tail}`;
  }
}

/** Splits a stream's decoded chunks into whole lines (a line can arrive in pieces). */
export class LineSplitter {
  private partial = '';

  constructor(private readonly onLine: (line: string) => void) {}

  push(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.onLine(line);
  }

  flush(): void {
    if (this.partial !== '') this.onLine(this.partial);
    this.partial = '';
  }
}
