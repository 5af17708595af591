import {
  BrokerAcquireRequest,
  BrokerReleaseRequest,
  BrokerRenewRequest,
  ErrorCodes,
  UserError,
  WireError,
  type BrokerAcquireResult,
  type Disposable,
} from '@agent-lsp/protocol';
import { ReadWriteLock, type ExclusiveAccess, type ExclusiveOptions, type LspConnection } from '@agent-lsp/lsp';
import { DEFAULT_LEASE_MS } from './leaseLength.js';

/** An acquire waits for every other client's in-flight requests to drain. */
const ACQUIRE_TIMEOUT_MS = 10 * 60_000;

export interface BrokerLeaseOptions {
  /** How often the lease is renewed; a third of its length by default. */
  renewEveryMs?: number;
  /** An upper bound on the lease length asked for (shorter sections are lost sooner). */
  maxLeaseMs?: number;
}

/** Why an exclusive section ended before its holder was done. */
export class LeaseLostError extends Error {
  constructor(readonly detail: string) {
    super(`the broker's lease was lost: ${detail}`);
    this.name = 'LeaseLostError';
  }
}

/**
 * Daemon mode's exclusive section: the front's own lock (so this front's other calls wait), plus
 * a lease from the broker (so other clients' messages wait), renewed while the section runs. A
 * lease that cannot be renewed, expires, or whose broker goes away aborts the section's signal:
 * the broker has restored the buffers and let others in, so what follows cannot be trusted.
 */
export class BrokerLeaseAccess implements ExclusiveAccess<LspConnection> {
  constructor(
    private readonly lock: ReadWriteLock = new ReadWriteLock(),
    private readonly options: BrokerLeaseOptions = {},
  ) {}

  run<T>(conn: LspConnection, fn: (lost: AbortSignal) => Promise<T>, options: ExclusiveOptions): Promise<T> {
    return this.lock.exclusive(async () => {
      const leaseMs = Math.min(options.leaseMs ?? DEFAULT_LEASE_MS, this.options.maxLeaseMs ?? Infinity);
      const lease = await acquire(conn, leaseMs);
      const held = new HeldLease(conn, lease, leaseMs, this.options.renewEveryMs ?? leaseMs / 3);
      try {
        return await fn(held.lost.signal);
      } finally {
        await held.release();
      }
    });
  }
}

async function acquire(conn: LspConnection, leaseMs: number): Promise<BrokerAcquireResult> {
  try {
    return await conn.request(BrokerAcquireRequest.type, { leaseMs }, { timeoutMs: ACQUIRE_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof WireError && err.code === ErrorCodes.MethodNotFound) {
      throw new UserError(
        'not_supported',
        `The ${conn.server.displayName} broker does not offer exclusive sections ($/agentLsp/acquire), so a simulation could leak into other agents' view. It is an older broker: stop it with \`agent-lsp daemon-stop --all\` and call again (a new one starts).`,
      );
    }
    throw err;
  }
}

/** One granted lease: renewed on a timer, watched for expiry and for the broker going away. */
class HeldLease {
  readonly lost = new AbortController();
  private readonly renewTimer: NodeJS.Timeout;
  private expiryTimer: NodeJS.Timeout | undefined;
  private readonly crashWatch: Disposable;

  constructor(
    private readonly conn: LspConnection,
    private readonly lease: BrokerAcquireResult,
    private readonly leaseMs: number,
    renewEveryMs: number,
  ) {
    this.watchExpiry(lease.expiresAt);
    this.renewTimer = setInterval(() => void this.renew(), renewEveryMs);
    this.crashWatch = conn.onCrash((err) => this.lose(`the broker went away (${err.message})`));
  }

  private lose(detail: string): void {
    if (this.lost.signal.aborted) return;
    this.conn.logger.warn(`exclusive section lost: ${detail}`);
    this.lost.abort(new LeaseLostError(detail));
  }

  private watchExpiry(expiresAt: number): void {
    clearTimeout(this.expiryTimer);
    this.expiryTimer = setTimeout(() => this.lose(`it expired at ${new Date(expiresAt).toISOString()} before it was renewed`), Math.max(0, expiresAt - Date.now()));
  }

  private async renew(): Promise<void> {
    if (this.lost.signal.aborted) return;
    try {
      const renewed = await this.conn.request(BrokerRenewRequest.type, { leaseId: this.lease.leaseId, leaseMs: this.leaseMs });
      if (!this.lost.signal.aborted) this.watchExpiry(renewed.expiresAt);
    } catch (err) {
      this.lose(`renewing it failed: ${(err as Error).message}`);
    }
  }

  /** Ends the lease. A release the broker refuses means the lease was gone before the section ended. */
  async release(): Promise<void> {
    clearInterval(this.renewTimer);
    clearTimeout(this.expiryTimer);
    this.crashWatch.dispose();
    if (this.lost.signal.aborted) return;
    try {
      await this.conn.request(BrokerReleaseRequest.type, { leaseId: this.lease.leaseId });
    } catch (err) {
      this.lose(`releasing it failed: ${(err as Error).message}`);
    }
  }
}
