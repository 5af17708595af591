import { randomUUID } from 'node:crypto';
import type { BrokerAcquireResult, BrokerStats } from '@agent-lsp/protocol';
import type { DocumentSnapshot, DocumentStore, Logger } from '@agent-lsp/lsp';
import type { ClientDocument, SharedDocuments } from './sharedDocuments.js';

export const DEFAULT_LEASE_MS = 60_000;
/**
 * Bounds of a lease (acquire and renew): a client holding one blocks every other client, so it
 * must renew rather than ask for hours; and Node runs a timer longer than 2^31-1 ms after 1 ms.
 */
export const MIN_LEASE_MS = 1_000;
export const MAX_LEASE_MS = 10 * 60_000;

/** A requested lease length within [MIN_LEASE_MS, MAX_LEASE_MS] (the default when absent or not a number). */
export function clampLeaseMs(leaseMs: number | undefined): number {
  if (leaseMs === undefined || !Number.isFinite(leaseMs)) return DEFAULT_LEASE_MS;
  return Math.min(MAX_LEASE_MS, Math.max(MIN_LEASE_MS, leaseMs));
}

interface Lease {
  client: number;
  id: string;
  expiresAt: number;
  timer: NodeJS.Timeout;
  /** The server's documents before the holder first touched them (the one restore mechanism of lsp/). */
  server: DocumentSnapshot | undefined;
  /** The store the snapshot belongs to: a server restarted since is not restored from it. */
  store: DocumentStore | undefined;
  /** The holder's own copies before it first touched them. */
  holder: Map<string, ClientDocument | undefined>;
}

export interface LeaseHost {
  readonly logger: Logger;
  readonly documents: SharedDocuments;
  serverDocuments(): DocumentStore | undefined;
  /** Requests of clients other than `client` that the server is working on. */
  inFlightOfOthers(client: number): number;
  /** Called when a lease begins (true) or ends (false): defer watcher events meanwhile. */
  sectionActive(active: boolean): void;
  /** The holder's documents were restored: the others get diagnostics for the restored text. */
  restored(uris: string[]): void;
  clientCount(): number;
  /** Client requests in flight at the server and waiting for their turn (for stats). */
  requests(): { inFlight: number; queued: number };
  /**
   * The holder let its lease run out (it stalled past it): whatever it still sends was meant for a
   * section that is over and must not reach the server, so the broker disconnects it.
   */
  leaseExpired(client: number): void;
}

/**
 * Exclusive sections. One client at a time holds a lease; the gate holds every other client's
 * messages (in order) until it ends. A lease is granted once the others' in-flight requests have
 * drained, so the holder's changes never race a request of someone else. When it ends (release,
 * disconnect, expiry) every document the holder changed is put back as it was.
 */
export class LeaseManager {
  private lease: Lease | undefined;
  /** The client being granted (draining the others): its gate is already closed to them. */
  private pendingHolder: number | undefined;
  private readonly acquireQueue: { client: number; leaseMs: number; grant: (r: BrokerAcquireResult) => void; fail: (e: Error) => void }[] = [];
  private gateOpen: Promise<void> = Promise.resolve();
  private openGate: (() => void) | undefined;
  private waitingCount = 0;

  constructor(private readonly host: LeaseHost) {}

  /** Resolves when `client` may proceed: at once unless another client holds or is taking a lease. */
  async gate(client: number): Promise<void> {
    while (this.blocks(client)) {
      this.waitingCount++;
      try {
        await this.gateOpen;
      } finally {
        this.waitingCount--;
      }
    }
  }

  /** Whether `client`'s messages may go to the server now (no one else holds or is taking a lease). */
  admits(client: number): boolean {
    return !this.blocks(client);
  }

  private blocks(client: number): boolean {
    const holder = this.lease?.client ?? this.pendingHolder;
    return holder !== undefined && holder !== client;
  }

  private closeGate(): void {
    if (this.openGate) return;
    this.gateOpen = new Promise((r) => (this.openGate = r));
  }

  private reopenGate(): void {
    const open = this.openGate;
    this.openGate = undefined;
    open?.();
  }

  acquire(client: number, requestedMs?: number): Promise<BrokerAcquireResult> {
    const leaseMs = clampLeaseMs(requestedMs);
    if (this.lease?.client === client) return Promise.resolve({ leaseId: this.lease.id, expiresAt: this.lease.expiresAt });
    return new Promise((grant, fail) => {
      this.acquireQueue.push({ client, leaseMs, grant, fail });
      void this.next();
    });
  }

  /** Grants the next queued acquire once nothing is held and the others' requests have drained. */
  private async next(): Promise<void> {
    if (this.lease || this.pendingHolder !== undefined) return;
    const request = this.acquireQueue.shift();
    if (!request) return;
    this.pendingHolder = request.client;
    this.closeGate();
    this.host.sectionActive(true);
    while (this.host.inFlightOfOthers(request.client) > 0) await new Promise<void>((r) => (this.drained = r));
    if (this.pendingHolder !== request.client) return; // it disconnected while the others drained
    this.pendingHolder = undefined;
    const expiresAt = Date.now() + request.leaseMs;
    this.lease = {
      client: request.client,
      id: randomUUID(),
      expiresAt,
      timer: setTimeout(() => this.expire(), request.leaseMs),
      server: undefined,
      store: undefined,
      holder: new Map(),
    };
    this.granted++;
    this.host.logger.debug(`lease ${this.lease.id} granted to client ${request.client}`);
    request.grant({ leaseId: this.lease.id, expiresAt });
  }

  private drained: (() => void) | undefined;
  /** Leases granted so far (for stats). */
  private granted = 0;

  /** A request of some client finished: a pending grant may be able to go ahead. */
  requestSettled(): void {
    const d = this.drained;
    this.drained = undefined;
    d?.();
  }

  renew(client: number, leaseId: string, requestedMs?: number): BrokerAcquireResult {
    const leaseMs = clampLeaseMs(requestedMs);
    const lease = this.owned(client, leaseId);
    clearTimeout(lease.timer);
    lease.expiresAt = Date.now() + leaseMs;
    lease.timer = setTimeout(() => this.expire(), leaseMs);
    return { leaseId: lease.id, expiresAt: lease.expiresAt };
  }

  release(client: number, leaseId: string): null {
    this.owned(client, leaseId);
    this.end('released');
    return null;
  }

  private owned(client: number, leaseId: string): Lease {
    const lease = this.lease;
    if (!lease || lease.client !== client || lease.id !== leaseId) throw new Error(`lease ${leaseId} is not held by this client (it may have expired)`);
    return lease;
  }

  /** The holder is about to change `uri`: remember what was there first. */
  noteChange(client: number, uri: string): void {
    const lease = this.lease;
    if (!lease || lease.client !== client || lease.holder.has(uri)) return;
    const store = this.host.serverDocuments();
    if (store && !lease.server) {
      lease.store = store;
      lease.server = store.snapshot();
    }
    lease.server?.record(uri);
    const holderDoc = this.host.documents.clientDocument(client, uri);
    lease.holder.set(uri, holderDoc ? { ...holderDoc } : undefined);
  }

  /** While a lease is held, notifications about the documents it changed go to the holder only. */
  visible(client: number, uri: string): boolean {
    const lease = this.lease;
    return !lease || lease.client === client || !lease.holder.has(uri);
  }

  clientGone(client: number): void {
    for (let i = this.acquireQueue.length - 1; i >= 0; i--) {
      if (this.acquireQueue[i]?.client === client) this.acquireQueue.splice(i, 1)[0]?.fail(new Error('client disconnected'));
    }
    if (this.lease?.client === client) this.end('holder disconnected');
    else if (this.pendingHolder === client) {
      this.pendingHolder = undefined;
      this.reopenGate();
      this.host.sectionActive(false);
      void this.next();
    }
  }

  private expire(): void {
    const client = this.lease?.client;
    this.end('lease expired');
    if (client !== undefined) this.host.leaseExpired(client);
  }

  private end(reason: string): void {
    const lease = this.lease;
    if (!lease) return;
    clearTimeout(lease.timer);
    this.lease = undefined;
    const uris = [...lease.holder.keys()];
    this.restore(lease);
    this.host.logger.debug(`lease ${lease.id} of client ${lease.client} ended (${reason}); restored ${uris.length} document(s)`);
    this.host.restored(uris);
    this.host.sectionActive(false);
    this.reopenGate();
    void this.next();
  }

  /**
   * The holder's copies and the server's documents back as they were before the lease. A server
   * restarted meanwhile is given what the clients hold (the holder's restored copies included).
   */
  private restore(lease: Lease): void {
    const { documents } = this.host;
    for (const [uri, before] of lease.holder) documents.setClientDocument(lease.client, uri, before);
    const store = this.host.serverDocuments();
    try {
      if (store && lease.server && lease.store === store) store.restore(lease.server);
      else if (store) documents.resyncAll();
    } catch (err) {
      this.host.logger.error(`lease ${lease.id}: ${(err as Error).message}`);
    }
    documents.restored([...lease.holder.keys()]);
  }

  /** Answered once the document decisions of messages received before it are made (disk checks). */
  async stats(): Promise<BrokerStats> {
    await this.host.documents.settled();
    return {
      clients: this.host.clientCount(),
      waiting: this.waitingCount,
      lease: this.lease ? { client: this.lease.client, expiresAt: this.lease.expiresAt } : null,
      leasesGranted: this.granted,
      openDocuments: this.host.serverDocuments()?.uris({ includeInternal: true }) ?? [],
      unheldDocuments: this.host.documents.unaccounted(),
      requests: this.host.requests(),
    };
  }

  dispose(): void {
    if (this.lease) clearTimeout(this.lease.timer);
    // Nothing is held any more: a waiting gate must not find the holder still set and spin.
    this.lease = undefined;
    this.pendingHolder = undefined;
    for (const q of this.acquireQueue.splice(0)) q.fail(new Error('broker stopping'));
    this.reopenGate();
  }
}
