import { randomUUID } from 'node:crypto';
import type { Disposable } from '@agent-lsp/protocol';
import type { LspConnection, ServerDefinition } from '@agent-lsp/lsp';
import type { Workspace } from '@agent-lsp/workspace';
import { BaselineCache } from './baselineCache.js';
import { SimulationError } from './errors.js';
import type { EvaluationHooks } from './evaluator.js';
import { SessionEvents } from './sessionEvents.js';
import { SimulationSession } from './simulationSession.js';

export interface SimulationRegistryOptions {
  /** Live sessions at most (default 32). */
  cap?: number;
  /** A session unused this long is destroyed (default 30 min). */
  idleMs?: number;
  now?: () => number;
  /** Test hooks of evaluations (injected by tests through the composition root, never set in production). */
  hooks?: EvaluationHooks;
}

export const DEFAULT_SESSION_CAP = 32;
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** How many ended ids are remembered, to say "destroyed" or "expired" rather than "unknown". */
const REMEMBERED_ENDS = 1000;

/**
 * The speculative sessions of one front: created with an id, looked up by it, destroyed on request
 * or after an idle time, never more than a cap. Also holds the baseline cache they share.
 */
export class SimulationRegistry implements Disposable {
  private readonly sessions = new Map<string, SimulationSession>();
  private readonly ended = new Map<string, 'destroyed' | 'expired'>();
  readonly baselines = new BaselineCache();
  /** Every session's lifecycle events (forwarded to MCP clients as log messages). */
  readonly events = new SessionEvents();
  private readonly cap: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly hooks: EvaluationHooks | undefined;
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: SimulationRegistryOptions = {}) {
    this.cap = options.cap ?? DEFAULT_SESSION_CAP;
    this.idleMs = options.idleMs ?? DEFAULT_SESSION_IDLE_MS;
    this.now = options.now ?? Date.now;
    this.hooks = options.hooks;
    this.sweeper = setInterval(() => this.sweep(), Math.min(60_000, this.idleMs)).unref();
  }

  get size(): number {
    this.sweep();
    return this.sessions.size;
  }

  create(language: string, root: string, deps: { workspace: Workspace; conn: LspConnection; server: ServerDefinition }): SimulationSession {
    this.sweep();
    if (this.sessions.size >= this.cap) {
      throw new SimulationError('session_cap', `There are already ${this.sessions.size} simulation sessions (the limit is ${this.cap}). Destroy sessions you no longer need with destroy_session.`);
    }
    const session = new SimulationSession(`sim_${randomUUID()}`, language, root, { ...deps, cache: this.baselines, now: this.now, hooks: this.hooks, events: this.events });
    this.sessions.set(session.id, session);
    this.events.emit({ event: 'session.created', session_id: session.id, workspace_root: root, language });
    return session;
  }

  get(id: string): SimulationSession {
    this.sweep();
    const session = this.sessions.get(id);
    if (session) {
      session.lastUsedAt = this.now();
      return session;
    }
    const end = this.ended.get(id);
    if (end === 'destroyed') throw new SimulationError('session_destroyed', `Simulation session ${id} was destroyed. Create a new one with create_simulation_session.`);
    if (end === 'expired') {
      throw new SimulationError('session_expired', `Simulation session ${id} expired after ${Math.round(this.idleMs / 60_000)} min without use. Create a new one with create_simulation_session.`);
    }
    throw new SimulationError('unknown_session', `There is no simulation session ${id} (ids are valid only in the agent-lsp process that created them). Create one with create_simulation_session.`);
  }

  destroy(id: string): SimulationSession {
    const session = this.get(id);
    this.end(session, 'destroyed');
    return session;
  }

  private end(session: SimulationSession, how: 'destroyed' | 'expired'): void {
    session.destroy();
    this.sessions.delete(session.id);
    this.events.emit({ event: 'session.destroyed', session_id: session.id, reason: how });
    this.ended.set(session.id, how);
    if (this.ended.size > REMEMBERED_ENDS) {
      const oldest = this.ended.keys().next().value;
      if (oldest !== undefined) this.ended.delete(oldest);
    }
  }

  /** Ends sessions idle past the limit (one that is evaluating right now is in use, not idle). */
  sweep(): void {
    const now = this.now();
    for (const s of [...this.sessions.values()]) {
      if (s.phase !== 'evaluating' && now - s.lastUsedAt > this.idleMs) this.end(s, 'expired');
    }
  }

  dispose(): void {
    clearInterval(this.sweeper);
    for (const s of [...this.sessions.values()]) this.end(s, 'destroyed');
  }
}
