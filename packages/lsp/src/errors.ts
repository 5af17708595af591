import { ErrorCodes, WireError } from '@agent-lsp/protocol';

/** The language server process or socket went away; every pending request fails with this. */
export class ServerCrashedError extends WireError {
  constructor(
    serverName: string,
    detail: string,
    /** The peer that went away was a broker (daemon mode): a new one can be started at once. */
    readonly brokerGone = false,
  ) {
    super(
      ErrorCodes.ServerCrashed,
      `The ${serverName} language server stopped unexpectedly (${detail}). It will be restarted on the next call; use restart_lsp_server to restart it now.`,
    );
    this.name = 'ServerCrashedError';
  }
}

/**
 * The language server runs but stopped answering (stopped, deadlocked, stuck in a loop): requests
 * waiting on it fail with this, and new ones at once, until it answers again or is restarted.
 */
export class ServerUnresponsiveError extends WireError {
  constructor(serverName: string, root: string, detail: string) {
    super(
      ErrorCodes.ServerUnresponsive,
      `The ${serverName} language server for ${root} is unresponsive (${detail}): it runs but answers nothing. Restart it with restart_lsp_server; calls fail at once until it answers again.`,
    );
    this.name = 'ServerUnresponsiveError';
  }
}

export class RequestTimeoutError extends WireError {
  constructor(method: string, timeoutMs: number) {
    super(
      ErrorCodes.RequestTimeout,
      `The language server did not answer ${method} within ${Math.round(timeoutMs / 1000)} s. The server may be overloaded; try again, or restart it with restart_lsp_server.`,
    );
    this.name = 'RequestTimeoutError';
  }
}

export class ConnectionClosedError extends WireError {
  constructor(serverName: string) {
    super(ErrorCodes.ConnectionClosed, `The connection to ${serverName} was closed by agent-lsp.`);
    this.name = 'ConnectionClosedError';
  }
}

export class RequestCancelledError extends WireError {
  constructor(method: string) {
    super(ErrorCodes.RequestCancelled, `${method} was cancelled.`);
    this.name = 'RequestCancelledError';
  }
}

/**
 * Whether a request's failure is the server's own answer (an error response: it read the request):
 * not a timeout, a lost or closed connection, or our cancellation.
 */
export function isServerAnswer(err: unknown): boolean {
  return !(err instanceof RequestTimeoutError || err instanceof ServerCrashedError || err instanceof ConnectionClosedError || err instanceof RequestCancelledError);
}
