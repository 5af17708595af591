import { UserError } from '@agent-lsp/protocol';

/** Why a speculative-session call was refused. */
export type SimulationErrorReason =
  | 'unknown_session'
  | 'session_destroyed'
  | 'session_expired'
  | 'session_cap'
  | 'invalid_phase'
  | 'session_dirty'
  | 'disk_changed'
  | 'wrong_server'
  | 'lease_lost';

/**
 * A speculative-session call the agent can act on (a stale id, a call in the wrong phase, a file
 * changed on disk underneath). A UserError, so it reaches the agent as a plain tool error; `reason`
 * tells which, for code and tests.
 */
export class SimulationError extends UserError {
  constructor(
    readonly reason: SimulationErrorReason,
    message: string,
  ) {
    super(reason === 'disk_changed' ? 'conflict' : 'invalid_argument', message);
    this.name = 'SimulationError';
  }
}
