import { ReadWriteLock } from './locks.js';

export interface ExclusiveOptions {
  /** How long the section may last without being renewed (a broker's lease); default 60 s. */
  leaseMs?: number;
}

/**
 * How a connection's exclusive section is taken. The connection factory chooses: a local lock in
 * direct mode, the lock plus a broker lease in daemon mode. `fn` gets a signal that aborts when
 * the section is lost before `fn` ends (a lease that could not be renewed, a broker gone); what
 * `fn` computed after that point must not be trusted. `Conn` is the connection whose section it is
 * (named by the connection: this file does not import it back).
 */
export interface ExclusiveAccess<Conn = unknown> {
  run<T>(conn: Conn, fn: (lost: AbortSignal) => Promise<T>, options: ExclusiveOptions): Promise<T>;
}

/** Direct and passive mode: the front's own lock is the whole section (nobody else talks to the server). */
export class LocalExclusiveAccess implements ExclusiveAccess {
  constructor(private readonly lock: ReadWriteLock = new ReadWriteLock()) {}

  run<T>(_conn: unknown, fn: (lost: AbortSignal) => Promise<T>): Promise<T> {
    return this.lock.exclusive(() => fn(new AbortController().signal));
  }
}
