import { Emitter, type Disposable } from '@agent-lsp/protocol';
import type { ProgressToken, WorkDoneProgressBegin, WorkDoneProgressEnd, WorkDoneProgressReport } from 'vscode-languageserver-protocol';

/** What the server says it is doing, as shown to agents. */
export interface ProgressInfo {
  title?: string;
  message?: string;
  percentage?: number;
}

export interface ProgressEvent {
  kind: 'begin' | 'report' | 'end';
  token: ProgressToken;
  title: string;
  info: ProgressInfo;
}

/** Tracks the server's work-done progress ($/progress begin/report/end) by token. */
export class ProgressTracker implements Disposable {
  private readonly active = new Map<ProgressToken, ProgressInfo>();
  private readonly emitter = new Emitter<ProgressEvent>();
  readonly onProgress = this.emitter.on.bind(this.emitter);

  handle(token: ProgressToken, value: WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd): void {
    if (value.kind === 'begin') {
      const info: ProgressInfo = { title: value.title };
      if (value.message !== undefined) info.message = value.message;
      if (value.percentage !== undefined) info.percentage = value.percentage;
      this.active.set(token, info);
      this.emitter.fire({ kind: 'begin', token, title: value.title, info });
    } else if (value.kind === 'report') {
      const info = this.active.get(token) ?? {};
      if (value.message !== undefined) info.message = value.message;
      if (value.percentage !== undefined) info.percentage = value.percentage;
      this.active.set(token, info);
      this.emitter.fire({ kind: 'report', token, title: info.title ?? '', info });
    } else {
      const info = this.active.get(token) ?? {};
      this.active.delete(token);
      if (value.message !== undefined) info.message = value.message;
      this.emitter.fire({ kind: 'end', token, title: info.title ?? '', info });
    }
  }

  /** The most recently begun work still in progress, if any. */
  current(): ProgressInfo | undefined {
    let last: ProgressInfo | undefined;
    for (const info of this.active.values()) last = info;
    return last;
  }

  activeCount(): number {
    return this.active.size;
  }

  dispose(): void {
    this.emitter.dispose();
    this.active.clear();
  }
}
