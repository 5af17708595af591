import { connect, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { Message, SocketMessageReader, SocketMessageWriter, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { Logger } from '@agent-lsp/lsp';
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

export interface EditorRelayOptions {
  /** The broker's socket. */
  socketPath: string;
  /** The editor's messages (its stdin) and where ours go (its stdout). */
  fromEditor: EditorMessages;
  output: Writable;
  logger: Logger;
}

/**
 * `agent-lsp lsp`: relays LSP between an editor (stdio) and a broker (its socket), message by
 * message and unchanged. The editor is one more broker client: it gets the server's real
 * capabilities in the broker's initialize answer, pushed diagnostics, and its unsaved buffers stay
 * its own documents. Resolves once either side is gone (the editor's `exit`, stdin closing, or the
 * broker stopping), with the process exit code LSP asks for: 0 after `shutdown`, 1 otherwise.
 */
export async function relayEditor(options: EditorRelayOptions): Promise<number> {
  const socket: Socket = connect(options.socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const { fromEditor } = options;
  const toEditor = new StreamMessageWriter(options.output);
  const fromBroker = new SocketMessageReader(socket);
  const toBroker = new SocketMessageWriter(socket);
  let shutdownAsked = false;

  return new Promise<number>((resolve) => {
    let done = false;
    const finish = (why: string) => {
      if (done) return;
      done = true;
      options.logger.info(`relay ends: ${why}`);
      fromEditor.dispose();
      fromBroker.dispose();
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
      resolve(shutdownAsked ? 0 : 1);
    };
    fromBroker.listen((message: Message) => {
      void toEditor.write(message).catch((err: unknown) => finish(`editor write failed: ${String(err)}`));
    });
    fromBroker.onClose(() => finish('the broker closed the connection'));
    fromBroker.onError((err) => options.logger.warn(`broker connection: ${err.message}`));
    socket.once('close', () => finish('the broker connection closed'));
    fromEditor.onClose(() => finish('the editor closed stdin'));
    fromEditor.drainTo((message: Message) => {
      if (Message.isRequest(message) && message.method === 'shutdown') shutdownAsked = true;
      void toBroker.write(message).catch((err: unknown) => finish(`broker write failed: ${String(err)}`));
      // The broker closes this client on exit; we end with it.
      if (Message.isNotification(message) && message.method === 'exit') setTimeout(() => finish('exit'), 200).unref();
    });
  });
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
