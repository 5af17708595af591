/**
 * Error codes for errors that cross a wire (JSON-RPC). The JSON-RPC and LSP codes are the
 * protocol's own; our block lives in the range reserved for implementation-defined server errors.
 */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerNotInitialized: -32002,
  RequestFailed: -32803,
  ServerCancelled: -32802,
  ContentModified: -32801,
  RequestCancelled: -32800,
  // agent-lsp's own block (-32099..-32000 is reserved for implementation-defined server errors).
  ServerCrashed: -32090,
  ServerNotReady: -32091,
  RequestTimeout: -32092,
  ConnectionClosed: -32093,
  ServerUnresponsive: -32094,
  // vscode-jsonrpc's own codes in that block (its ErrorCodes), as they reach us from the library.
  MessageWriteError: -32099,
  MessageReadError: -32098,
} as const;
export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** An error that carries a JSON-RPC code and can be serialized onto a wire. */
export class WireError extends Error {
  constructor(
    /** One of ErrorCodes, or a code a server sent. */
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'WireError';
  }
}

/** Stable codes of local errors: these never cross a wire, they become tool messages. */
export type UserErrorCode =
  | 'invalid_position'
  | 'pattern_not_found'
  | 'pattern_ambiguous'
  | 'outside_workspace'
  | 'file_not_found'
  | 'filesystem'
  | 'unknown_language'
  | 'server_not_found'
  | 'server_failed'
  | 'no_workspace'
  | 'invalid_argument'
  | 'not_supported'
  | 'conflict';

/**
 * A problem with what the caller asked for, or with the environment, that the caller can fix.
 * Its message says what was wrong and what to do.
 */
export class UserError extends Error {
  constructor(
    readonly code: UserErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}
