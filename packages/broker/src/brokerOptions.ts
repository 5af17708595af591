import { join } from 'node:path';
import type { Logger, ResolvedServer, ServerDefinition } from '@agent-lsp/lsp';
import type { StatusWriterOptions } from './statusWriter.js';

export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;
export const LOCK_STALE_MS = 10_000;
/** A broker no client has initialized yet is being attached to by the front that spawned it: not evictable this long. */
export const ATTACHING_GRACE_MS = 60_000;
/** A client left moments ago: a front between its probe and its real connection, or one about to reconnect. */
export const EVICT_GRACE_MS = 2_000;
/** How long an agreed eviction waits for the asker to read the answer and hang up. */
export const EVICT_ANSWER_MS = 1_000;
/** Activity (requests) rewrites daemon.json's lastActivityAt at most this often; comings and goings always do. */
export const ACTIVITY_PERSIST_MS = 10_000;

export interface BrokerOptions {
  key: string;
  dir: string;
  root: string;
  server: ServerDefinition;
  /** The server resolved for the root (the key was computed from it). */
  resolved?: ResolvedServer;
  idleTimeoutMs: number;
  logger: Logger;
  /** Requests in flight at the server at once (fair queuing between clients); 0: unbounded. */
  maxInFlight?: number;
  /** How daemon.json is written (tests inject failures); temp file + rename by default. */
  writeStatus?: StatusWriterOptions['write'];
}

/** Lock files live beside their (never created) targets: `<dir>/lifetime.lock`, `<dir>/spawn.lock`. */
export function lockTarget(dir: string, name: 'lifetime' | 'spawn'): string {
  return join(dir, name);
}
