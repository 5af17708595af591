import { connect, type Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { Message, SocketMessageReader, SocketMessageWriter, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { Logger } from '@agent-lsp/lsp';

export interface EditorRelayOptions {
  /** The broker's socket. */
  socketPath: string;
  /** The editor's side: its messages arrive on `input`, ours go to `output` (stdin/stdout). */
  input: Readable;
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
  const fromEditor = new StreamMessageReader(options.input);
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
    fromEditor.listen((message: Message) => {
      if (Message.isRequest(message) && message.method === 'shutdown') shutdownAsked = true;
      void toBroker.write(message).catch((err: unknown) => finish(`broker write failed: ${String(err)}`));
      // The broker closes this client on exit; we end with it.
      if (Message.isNotification(message) && message.method === 'exit') setTimeout(() => finish('exit'), 200).unref();
    });
    fromBroker.listen((message: Message) => {
      void toEditor.write(message).catch((err: unknown) => finish(`editor write failed: ${String(err)}`));
    });
    fromEditor.onClose(() => finish('the editor closed stdin'));
    fromEditor.onError((err) => options.logger.warn(`editor sent an unreadable message: ${err.message}`));
    fromBroker.onClose(() => finish('the broker closed the connection'));
    fromBroker.onError((err) => options.logger.warn(`broker connection: ${err.message}`));
    options.input.once('end', () => finish('the editor closed stdin'));
    socket.once('close', () => finish('the broker connection closed'));
  });
}
