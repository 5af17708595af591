import { PassThrough } from 'node:stream';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { ExitInfo, ServerTransport } from './serverProcess.js';

export interface LinkedTransport {
  /** The client's end: give it to an LspConnection. */
  transport: ServerTransport;
  /** The peer's end (the "server"): register handlers, then `listen()`. */
  peer: MessageConnection;
  /** The peer goes away (as a crashed server or a killed broker would). */
  disconnect(reason?: string): void;
}

/**
 * An in-memory LSP wire (like the MCP SDK's InMemoryTransport.createLinkedPair): real framing by
 * vscode-jsonrpc over two PassThrough streams, no process, no socket. For fast unit tests of
 * protocol logic; tests of language-server behaviour use the real servers.
 */
export function createLinkedTransport(): LinkedTransport {
  const toPeer = new PassThrough();
  const toClient = new PassThrough();
  let gone: (info: ExitInfo) => void = () => undefined;
  const exited = new Promise<ExitInfo>((resolve) => (gone = resolve));
  const peer = createMessageConnection(new StreamMessageReader(toPeer), new StreamMessageWriter(toClient));
  const disconnect = (reason = 'peer disconnected') => {
    peer.dispose();
    toClient.end();
    toPeer.end();
    gone({ reason, stderrTail: '' });
  };
  const transport: ServerTransport = {
    input: toClient,
    output: toPeer,
    pid: undefined,
    exited,
    terminate: () => {
      disconnect('terminated');
      return Promise.resolve();
    },
  };
  return { transport, peer, disconnect };
}
