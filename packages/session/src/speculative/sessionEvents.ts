import type { Disposable } from '@agent-lsp/protocol';

/**
 * The structured events of a speculative session's life (seed 001, Observability): lifecycle
 * events at debug, a session gone dirty at error. The front forwards them as MCP log messages
 * (logger `session`) to a client that asked for that level.
 */
export type SessionEvent =
  | { event: 'session.created'; session_id: string; workspace_root: string; language: string }
  | { event: 'session.edit_applied'; session_id: string; file: string; range: SessionEventRange | null; version_after: number }
  | { event: 'session.evaluation_start'; session_id: string; edit_count: number; scope: string }
  | { event: 'session.evaluation_complete'; session_id: string; duration_ms: number; net_delta: number; confidence: string }
  | { event: 'session.committed'; session_id: string; files_written: number; duration_ms: number }
  | { event: 'session.discarded'; session_id: string; edit_count: number }
  | { event: 'session.dirty'; session_id: string; step: string; error: string }
  | { event: 'session.destroyed'; session_id: string; reason: 'destroyed' | 'expired' };

/** A range as the tools take it: 1-based lines and character columns. */
export interface SessionEventRange {
  start_line: number;
  start_column: number;
  end_line: number;
  end_column: number;
}

export type SessionEventListener = (event: SessionEvent) => void;

/** Who hears a registry's session events; a failing listener never fails the session's call. */
export class SessionEvents {
  private readonly listeners = new Set<SessionEventListener>();

  on(listener: SessionEventListener): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  emit(event: SessionEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // An observer's failure is its own.
      }
    }
  }
}

/** The level a session event is logged at. */
export function sessionEventLevel(event: SessionEvent): 'debug' | 'error' {
  return event.event === 'session.dirty' ? 'error' : 'debug';
}
