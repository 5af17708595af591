import type { Readable } from 'node:stream';
import { Message, StreamMessageReader } from 'vscode-jsonrpc/node';
import { uriToPath } from '@agent-lsp/protocol';

/**
 * The editor's side of the relay, read from the start: messages wait here until the broker is
 * connected, so the relay can look at the editor's `initialize` (its root) before choosing a broker.
 */
export class EditorMessages {
  private readonly reader: StreamMessageReader;
  private readonly queue: Message[] = [];
  private sink: ((m: Message) => void) | undefined;
  private waiting: ((m: Message | undefined) => void) | undefined;
  private closedValue = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(input: Readable) {
    this.reader = new StreamMessageReader(input);
    this.reader.listen((m) => {
      if (this.sink) return this.sink(m);
      this.queue.push(m);
      this.waiting?.(m);
      this.waiting = undefined;
    });
    const closed = () => {
      if (this.closedValue) return;
      this.closedValue = true;
      this.waiting?.(undefined);
      for (const l of this.closeListeners) l();
    };
    this.reader.onClose(closed);
    input.once('end', closed);
  }

  /** The first message (normally `initialize`); undefined when the editor closed before sending one. */
  async first(): Promise<Message | undefined> {
    if (this.queue[0]) return this.queue[0];
    if (this.closedValue) return undefined;
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** From now on every message goes to `sink`, those read so far first. */
  drainTo(sink: (m: Message) => void): void {
    for (const m of this.queue.splice(0)) sink(m);
    this.sink = sink;
  }

  onClose(listener: () => void): void {
    if (this.closedValue) listener();
    else this.closeListeners.push(listener);
  }

  dispose(): void {
    this.reader.dispose();
  }
}

/** The root an editor's initialize names: rootUri, else its first workspace folder, else rootPath. */
export function initializeRoot(message: Message | undefined): string | undefined {
  if (!message || !Message.isRequest(message) || message.method !== 'initialize') return undefined;
  const params = (message.params ?? {}) as { rootUri?: unknown; rootPath?: unknown; workspaceFolders?: unknown };
  const folders = Array.isArray(params.workspaceFolders) ? (params.workspaceFolders as { uri?: unknown }[]) : [];
  for (const uri of [params.rootUri, folders[0]?.uri]) {
    if (typeof uri === 'string') {
      const path = uriToPath(uri);
      if (path !== undefined) return path;
    }
  }
  return typeof params.rootPath === 'string' ? params.rootPath : undefined;
}
