import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { ErrorCodes, WireError } from '@agent-lsp/protocol';
import type { ServerTransport } from './serverProcess.js';
import type { ServerDefinition } from './serverProfile.js';
import type { RequestOptions } from './trackedRequest.js';

const PEER_EXIT_GRACE_MS = 500;
const MESSAGE_WRITE_ERROR = ErrorCodes.MessageWriteError;
/** Messages of the write errors that mean the transport is gone (Node's stream and socket errors). */
const TRANSPORT_FAILURE = /\b(EPIPE|ECONNRESET|ERR_STREAM_DESTROYED|ERR_STREAM_WRITE_AFTER_END)\b|write after end|after a stream was destroyed|socket has been ended/;

/**
 * Why a request failed to go out. A write the transport refused (EPIPE, ECONNRESET, a closed
 * stream) means the peer is gone, even if the close event has not arrived yet: report it as such
 * (`peerGone`, and so let a caller retry elsewhere). A message that could not be serialized
 * (JSON.stringify overflowing on deep nesting, a cycle, a BigInt) never reached the transport:
 * that is the caller's error, and the peer is fine. `crash()` is the connection's crash, if any.
 */
export function sendFailure(method: string, err: unknown, crash: () => Error | undefined, peerGone: (detail: string) => void): Error {
  const code = (err as { code?: unknown }).code;
  const message = err instanceof Error ? err.message : String(err);
  const transportFailed = code === 'EPIPE' || code === 'ECONNRESET' || TRANSPORT_FAILURE.test(message);
  if (!crash() && transportFailed) peerGone(`connection lost: ${message}`);
  // vscode-jsonrpc reports every failed write, whatever its cause, as MessageWriteError.
  if (!crash() && code === MESSAGE_WRITE_ERROR) {
    return new WireError(ErrorCodes.InvalidParams, `${method} could not be serialized (${message}); nothing was sent to the server`);
  }
  return toWireError(err, crash());
}

export function toWireError(err: unknown, crash: Error | undefined): Error {
  if (crash) return crash;
  if (err instanceof ResponseError) return new WireError(err.code, err.message, err.data);
  return err instanceof Error ? err : new Error(String(err));
}

/** Calls `gone` once the peer's process exits or its stream closes, with why (the exit's reason and last output). */
export function watchPeerExit(rpc: MessageConnection, transport: ServerTransport, gone: (detail: string) => void): void {
  void transport.exited.then((info) => {
    const tail = info.stderrTail ? `; last output: ${info.stderrTail.split('\n').slice(-3).join(' | ')}` : '';
    gone(`${info.reason}${tail}`);
  });
  // The stream usually closes just before the process is reaped: give the exit a moment to say why.
  rpc.onClose(() => {
    const grace = new Promise<undefined>((r) => setTimeout(() => r(undefined), PEER_EXIT_GRACE_MS).unref());
    void Promise.race([transport.exited, grace]).then((info) => {
      if (!info) gone('connection closed');
    });
  });
}

/**
 * The options of a request of `method`: no `$/cancelRequest` where the server mishandles one. A
 * broker takes every cancel (one not yet sent to the server is never sent) and passes on only
 * those its server handles.
 */
export function withPeerCancel(method: string, options: RequestOptions, server: ServerDefinition, viaBroker: boolean): RequestOptions {
  return !viaBroker && server.uncancellable?.includes(method) ? { ...options, cancelAtPeer: false } : options;
}
