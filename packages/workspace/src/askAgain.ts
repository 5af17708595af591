import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCodes, WireError } from '@agent-lsp/protocol';
import { RequestCancelledError } from '@agent-lsp/lsp';

/**
 * Codes with which a server says its answer was not wrong but void: the text or project changed
 * while it computed (ContentModified: rust-analyzer while it reloads a workspace, gopls after a
 * file event), or it dropped the request to recompute (ServerCancelled). LSP leaves the retry to
 * the client; an agent should get the answer, not the server's bookkeeping.
 */
const ASK_AGAIN: ReadonlySet<number> = new Set([ErrorCodes.ContentModified, ErrorCodes.ServerCancelled]);

/**
 * RequestCancelled from the server when we did not cancel: pyrefly drops a request "canceled due
 * to subsequent mutation" when another call opens or changes a file meanwhile. Our own cancel
 * (the call's abort, which is then aborted, or the RequestCancelledError the connection makes
 * for it) is never asked again.
 */
function serverCancelled(err: unknown, code: number, signal: AbortSignal): boolean {
  return code === ErrorCodes.RequestCancelled && !signal.aborted && !(err instanceof RequestCancelledError);
}

/** Pauses before each new attempt: ~5 s in all, long enough for a reload to finish. */
export const ASK_AGAIN_DELAYS_MS: readonly number[] = [50, 150, 300, 500, 1000, 1000, 1000, 1000];

/**
 * Runs a read-only request, asking again while the server answers ContentModified or
 * ServerCancelled (or cancels it itself), at most ASK_AGAIN_DELAYS_MS.length more times. When the server still says so
 * after that, the error says what it means and what to do. Any other error, and an abort, end it
 * at once.
 */
export async function askAgainWhileModified<R>(method: string, ask: () => Promise<R>, signal: AbortSignal, delaysMs: readonly number[] = ASK_AGAIN_DELAYS_MS): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await ask();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (typeof code !== 'number' || !(ASK_AGAIN.has(code) || serverCancelled(err, code, signal)) || signal.aborted) throw err;
      const delay = delaysMs[attempt];
      if (delay === undefined) throw stillModified(method, err as Error, attempt + 1);
      await sleep(delay, undefined, { signal });
    }
  }
}

function stillModified(method: string, err: Error, attempts: number): WireError {
  return new WireError(
    (err as WireError).code,
    `The server answered ${method} ${attempts} times in a row with "${err.message}": its view of the project is still changing (loading or reindexing). Nothing was answered; call again in a few seconds.`,
  );
}
