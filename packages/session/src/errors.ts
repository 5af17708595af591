/** Stable codes of the transaction layer's own failures (local errors: they never cross a wire). */
export type SessionErrorCode =
  | 'write_failed'
  | 'lock_unavailable'
  | 'lock_compromised'
  | 'cancelled'
  | 'restore_failed'
  | 'corrupt_state';

/**
 * A transaction could not do its work. The tool call that met it has been rolled back (unless the
 * code is `restore_failed`, which says what could not be put back).
 */
export class SessionError extends Error {
  constructor(
    readonly code: SessionErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SessionError';
  }
}
