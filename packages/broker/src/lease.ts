import { randomUUID } from 'node:crypto';
import type { BrokerAcquireResult, BrokerStats } from '@agent-lsp/protocol';
import { unitBuiltWithout, type DocumentSnapshot, type DocumentStore, type Logger } from '@agent-lsp/lsp';
import type { Disposable } from '@agent-lsp/protocol';
import { LeasedVersions } from './leasedVersions.js';
import { clampLeaseMs } from './leaseLength.js';
import type { ClientDocument, SharedDocuments } from './sharedDocuments.js';

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
  /** Records the server versions of the texts given during the lease (LeasedVersions). */
  following: Disposable;
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

interface QueuedAcquire {
  client: number;
  leaseMs: number;
  /** Its place among the other clients' messages (see `ticket`). */
  ticket: number;
  grant: (r: BrokerAcquireResult) => void;
  fail: (e: Error) => void;
}

/**
 * Exclusive sections. One client at a time holds a lease; the gate holds every other client's
 * messages (in order) until it ends. A lease is granted once the others' in-flight requests have
 * drained, so the holder's changes never race a request of someone else. When it ends (release,
 * disconnect, expiry) every document the holder changed is put back as it was.
 *
 * Leases and the others' messages take turns, so that back-to-back sections cannot starve anyone:
 * every gated message takes a ticket as it arrives, and a lease is granted only after the other
 * clients' messages that arrived before its barrier went through (sent, and answered): the barrier
 * is the later of its acquire's arrival and the end of the lease before it. So an acquire never
 * jumps ahead of requests already waiting, and whatever waited during one lease runs before the
 * next; what arrives after the barrier waits for that next lease.
 */
export class LeaseManager {
  private lease: Lease | undefined;
  /** The acquire being granted (waiting for earlier messages and in-flight requests of others). */
  private granting: QueuedAcquire | undefined;
  private readonly acquireQueue: QueuedAcquire[] = [];
  /** Resolved (and replaced) whenever what the gate decides on changed. */
  private gateChanged: Promise<void> = Promise.resolve();
  private openGate: (() => void) | undefined;
  private waitingCount = 0;
  private tickets = 0;
  /** The last ticket handed out when the latest lease ended. */
  private endedAt = 0;
  /** Gated messages that arrived and are not yet through: ticket → client. */
  private readonly present = new Map<number, number>();
  /** The texts leases gave the server: their late pushes reach nobody (see DiagnosticsBridge). */
  readonly leasedVersions = new LeasedVersions();

  constructor(private readonly host: LeaseHost) {}

  /**
   * A gated message of `client` arrived: its place in arrival order. It counts as waiting (a grant
   * whose barrier it precedes waits for it) until `through(ticket)`, once it went through (its
   * request sent) or was dropped.
   */
  arrive(client: number): number {
    const ticket = ++this.tickets;
    this.present.set(ticket, client);
    return ticket;
  }

  through(ticket: number): void {
    if (this.present.delete(ticket)) this.wakeGrant();
  }

  /**
   * Resolves when `client`'s message may proceed: at once unless another client holds a lease, or
   * is being granted one whose barrier this message arrived after; with `beside`, also while that
   * lease is held and `beside()` says the message may go beside it (a read, see readableBeside).
   */
  async gate(client: number, ticket = this.arrive(client), beside?: () => boolean): Promise<number> {
    while (this.blocks(client, ticket) && !(this.lease && beside?.())) {
      this.waitingCount++;
      try {
        await this.nextGateChange();
      } finally {
        this.waitingCount--;
      }
    }
    return ticket;
  }

  /** Whether `client`'s requests may go to the server now (no one else holds a lease). */
  admits(client: number): boolean {
    return this.lease === undefined || this.lease.client === client;
  }

  /**
   * Whether `client`'s read of `uri` may go to the server beside another client's lease now
   * (besideLease.ts, lsp's unitBuiltWithout): the server holds this client's own text of it and the section changed
   * nothing its answer is built from.
   */
  readableBeside(client: number, uri: string): boolean {
    const lease = this.lease;
    if (!lease || lease.client === client) return false;
    const own = this.host.documents.clientDocument(client, uri);
    const server = this.host.serverDocuments()?.get(uri);
    return own !== undefined && server !== undefined && own.text === server.text && unitBuiltWithout(lease.holder.keys(), uri, server.text);
  }

  /** Whether `client` holds the lease now. */
  holds(client: number): boolean {
    return this.lease?.client === client;
  }

  private blocks(client: number, ticket: number): boolean {
    if (this.lease) return this.lease.client !== client;
    const g = this.granting;
    return g !== undefined && g.client !== client && ticket >= this.barrier(g);
  }

  private barrier(request: QueuedAcquire): number {
    return Math.max(request.ticket, this.endedAt + 1);
  }

  private nextGateChange(): Promise<void> {
    if (!this.openGate) this.gateChanged = new Promise((r) => (this.openGate = r));
    return this.gateChanged;
  }

  private gateChange(): void {
    const open = this.openGate;
    this.openGate = undefined;
    open?.();
  }

  acquire(client: number, requestedMs?: number): Promise<BrokerAcquireResult> {
    const leaseMs = clampLeaseMs(requestedMs);
    if (this.lease?.client === client) return Promise.resolve({ leaseId: this.lease.id, expiresAt: this.lease.expiresAt });
    return new Promise((grant, fail) => {
      this.acquireQueue.push({ client, leaseMs, ticket: ++this.tickets, grant, fail });
      void this.next();
    });
  }

  /**
   * Whether a grant must still wait: earlier messages of others not through, or their requests in
   * flight. A client with an acquire queued is not waited for: its later messages wait behind that
   * acquire in its own order (its earlier ones are through).
   */
  private mustWait(request: QueuedAcquire): boolean {
    const barrier = this.barrier(request);
    const queued = new Set(this.acquireQueue.map((q) => q.client));
    for (const [ticket, client] of this.present) if (client !== request.client && ticket < barrier && !queued.has(client)) return true;
    return this.host.inFlightOfOthers(request.client) > 0;
  }

  /** Grants the next queued acquire once nothing is held and what went before it went through. */
  private async next(): Promise<void> {
    if (this.lease || this.granting) return;
    const request = this.acquireQueue.shift();
    if (!request) return;
    this.granting = request;
    // Messages that arrived after the barrier wait from now on.
    this.gateChange();
    while (this.granting === request && this.mustWait(request)) await new Promise<void>((r) => (this.drained = r));
    if (this.granting !== request) return; // it disconnected meanwhile
    this.granting = undefined;
    const expiresAt = Date.now() + request.leaseMs;
    this.lease = {
      client: request.client,
      id: randomUUID(),
      expiresAt,
      timer: setTimeout(() => this.expire(), request.leaseMs),
      server: undefined,
      store: undefined,
      holder: new Map(),
      following: this.leasedVersions.follow(this.host.serverDocuments()),
    };
    this.host.sectionActive(true);
    this.gateChange();
    this.granted++;
    this.host.logger.debug(`lease ${this.lease.id} granted to client ${request.client}`);
    request.grant({ leaseId: this.lease.id, expiresAt });
  }

  private drained: (() => void) | undefined;
  /** Leases granted so far (for stats). */
  private granted = 0;

  /** A request of some client finished: a pending grant may be able to go ahead. */
  requestSettled(): void {
    this.wakeGrant();
  }

  private wakeGrant(): void {
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
    for (const [ticket, owner] of this.present) if (owner === client) this.present.delete(ticket);
    if (this.lease?.client === client) this.end('holder disconnected');
    else if (this.granting?.client === client) {
      this.granting.fail(new Error('client disconnected'));
      this.granting = undefined;
      this.gateChange();
      void this.next();
    } else this.wakeGrant();
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
    // Before the restore: the texts it gives back are the disk's or the others', not the lease's.
    lease.following.dispose();
    this.lease = undefined;
    const uris = [...lease.holder.keys()];
    this.restore(lease);
    this.host.logger.debug(`lease ${lease.id} of client ${lease.client} ended (${reason}); restored ${uris.length} document(s)`);
    this.host.restored(uris);
    this.endedAt = this.tickets;
    this.host.sectionActive(false);
    this.gateChange();
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
      if (store && lease.server && lease.store === store) this.leasedVersions.reopenBuiltInLease(store, store.restore(lease.server));
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
    this.granting?.fail(new Error('broker stopping'));
    this.granting = undefined;
    for (const q of this.acquireQueue.splice(0)) q.fail(new Error('broker stopping'));
    this.gateChange();
    this.wakeGrant();
  }
}
