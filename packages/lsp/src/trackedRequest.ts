import { CancellationTokenSource, type CancellationToken } from 'vscode-jsonrpc/node';
import { DEFAULT_REQUEST_TIMEOUT_MS } from '@agent-lsp/protocol';
import { RequestCancelledError, RequestTimeoutError } from './errors.js';

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** false: an abort or timeout ends the request here only, without `$/cancelRequest` (ServerDefinition.uncancellable). */
  cancelAtPeer?: boolean;
}

/** One default for both sides of a broker's socket (the broker bounds forwarded requests by it). */
export { DEFAULT_REQUEST_TIMEOUT_MS };

/** A request on its way: the connection rejects every one of them at once when its peer goes. */
export interface PendingRequest {
  /** What was asked, and when (Date.now()): a long tool call's progress says what it waits on. */
  readonly method: string;
  readonly since: number;
  reject(err: Error): void;
  cancel(): void;
}

/**
 * Sends one request with a timeout and an abort signal (both cancel it at the peer with
 * `$/cancelRequest`, unless `cancelAtPeer` is false), registered in `pending` until it settles.
 */
export function trackedRequest<R>(
  method: string,
  options: RequestOptions,
  pending: Set<PendingRequest>,
  send: (token: CancellationToken) => Promise<R>,
  sendFailed: (err: unknown) => Error,
): Promise<R> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const cts = new CancellationTokenSource();
  const cancelAtPeer = () => {
    if (options.cancelAtPeer !== false) cts.cancel();
  };
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      pending.delete(entry);
      cts.dispose();
      fn();
    };
    const entry: PendingRequest = { method, since: Date.now(), reject: (err) => finish(() => reject(err)), cancel: cancelAtPeer };
    const timer = setTimeout(() => {
      cancelAtPeer();
      finish(() => reject(new RequestTimeoutError(method, timeoutMs)));
    }, timeoutMs);
    const onAbort = () => {
      cancelAtPeer();
      finish(() => reject(new RequestCancelledError(method)));
    };
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    pending.add(entry);
    send(cts.token).then(
      (value) => finish(() => resolve(value)),
      (err: unknown) => finish(() => reject(sendFailed(err))),
    );
  });
}
