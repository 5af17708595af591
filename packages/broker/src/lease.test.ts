import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@agent-lsp/lsp';
import { LeaseManager, type LeaseHost } from './lease.js';
import { SharedDocuments } from './sharedDocuments.js';

/** A broker as the lease manager sees it, with in-flight counts the test sets. */
function host() {
  const inFlight = new Map<number, number>();
  const sections: boolean[] = [];
  const expired: number[] = [];
  const h: LeaseHost = {
    logger: createLogger({ level: 'error', sink: () => undefined }),
    documents: new SharedDocuments(() => undefined),
    serverDocuments: () => undefined,
    inFlightOfOthers: (client) => [...inFlight].reduce((n, [c, k]) => (c === client ? n : n + k), 0),
    sectionActive: (active) => sections.push(active),
    restored: () => undefined,
    clientCount: () => 3,
    requests: () => ({ inFlight: 0, queued: 0 }),
    leaseExpired: (client) => expired.push(client),
  };
  return { h, inFlight, sections, expired };
}

/** Whether a promise has settled by the time pending microtasks ran. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe('LeaseManager', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('grants only once the other clients\' in-flight requests have drained, holding their new messages meanwhile', async () => {
    const { h, inFlight, sections } = host();
    const leases = new LeaseManager(h);
    inFlight.set(2, 2);
    const grant = leases.acquire(1, 60_000);
    expect(await settled(grant)).toBe(false);
    // Client 2's next message already waits: the gate closed when the grant began.
    expect(await settled(leases.gate(2))).toBe(false);
    expect(await settled(leases.gate(1))).toBe(true);
    inFlight.set(2, 1);
    leases.requestSettled();
    expect(await settled(grant)).toBe(false);
    inFlight.set(2, 0);
    leases.requestSettled();
    expect(await settled(grant)).toBe(true);
    expect(sections).toEqual([true]);
    expect((await leases.stats())).toMatchObject({ lease: { client: 1 }, waiting: 1 });
    leases.dispose();
  });

  it('lets every held message go when disposed while a lease is held', async () => {
    const { h } = host();
    const leases = new LeaseManager(h);
    await leases.acquire(1);
    const held = leases.gate(2);
    expect(await settled(held)).toBe(false);
    leases.dispose();
    expect(await settled(held)).toBe(true);
  });

  it('grants queued acquires in arrival order, one at a time', async () => {
    const { h } = host();
    const leases = new LeaseManager(h);
    const order: number[] = [];
    const a = await leases.acquire(1);
    const b = leases.acquire(2).then((r) => (order.push(2), r));
    const c = leases.acquire(3).then((r) => (order.push(3), r));
    expect(await settled(b)).toBe(false);
    leases.release(1, a.leaseId);
    const bLease = await b;
    expect(await settled(c)).toBe(false);
    leases.release(2, bLease.leaseId);
    await c;
    expect(order).toEqual([2, 3]);
    leases.dispose();
  });

  it('ends an expired lease (reopening the gate, disconnecting its holder), and a renewal extends it', async () => {
    vi.useFakeTimers();
    const { h, sections, expired } = host();
    const leases = new LeaseManager(h);
    const lease = await leases.acquire(1, 1000);
    await vi.advanceTimersByTimeAsync(900);
    expect(leases.renew(1, lease.leaseId, 1000).expiresAt).toBeGreaterThan(lease.expiresAt);
    await vi.advanceTimersByTimeAsync(900);
    expect((await leases.stats()).lease).toMatchObject({ client: 1 });
    const waiting = leases.gate(2);
    await vi.advanceTimersByTimeAsync(200);
    expect((await leases.stats()).lease).toBeNull();
    await waiting;
    expect(sections).toEqual([true, false]);
    expect(expired).toEqual([1]);
    expect(() => leases.renew(1, lease.leaseId)).toThrow(/not held by this client \(it may have expired\)/);
    leases.dispose();
  });

  it('refuses renew and release from a client that does not hold the lease', async () => {
    const { h } = host();
    const leases = new LeaseManager(h);
    const lease = await leases.acquire(1);
    expect(() => leases.renew(2, lease.leaseId)).toThrow(/not held by this client/);
    expect(() => leases.release(2, lease.leaseId)).toThrow(/not held by this client/);
    expect(() => leases.renew(1, 'another-id')).toThrow(/not held by this client/);
    expect((await leases.stats()).lease).toMatchObject({ client: 1 });
    leases.dispose();
  });

  it('ends the lease when its holder disconnects and grants the next; a queued client that leaves is dropped', async () => {
    const { h } = host();
    const leases = new LeaseManager(h);
    await leases.acquire(1);
    const leaving = leases.acquire(2);
    const next = leases.acquire(3);
    leases.clientGone(2);
    await expect(leaving).rejects.toThrow(/client disconnected/);
    leases.clientGone(1);
    await expect(next).resolves.toMatchObject({ leaseId: expect.any(String) });
    expect((await leases.stats()).lease).toMatchObject({ client: 3 });
    leases.dispose();
  });

  it('lets the others go when the client being granted disconnects while they drain', async () => {
    const { h, inFlight, sections } = host();
    const leases = new LeaseManager(h);
    inFlight.set(2, 1);
    const grant = leases.acquire(1);
    const held = leases.gate(2);
    expect(await settled(held)).toBe(false);
    leases.clientGone(1);
    expect(await settled(held)).toBe(true);
    await expect(grant).rejects.toThrow(/client disconnected/);
    // The watcher is deferred only once a lease is granted.
    expect(sections).toEqual([]);
    leases.dispose();
  });

  it('does not let an acquire go ahead of a message of another client that arrived before it', async () => {
    const { h } = host();
    const leases = new LeaseManager(h);
    const earlier = leases.arrive(2);
    const grant = leases.acquire(1);
    expect(await settled(grant)).toBe(false);
    await leases.gate(2, earlier);
    // A message that arrived after the acquire waits for the section.
    expect(await settled(leases.gate(2))).toBe(false);
    leases.through(earlier);
    expect(await settled(grant)).toBe(true);
    leases.dispose();
  });

  it('lets what waited during one lease through (sent and answered) before the next lease is granted', async () => {
    const { h, inFlight } = host();
    const leases = new LeaseManager(h);
    const first = await leases.acquire(1);
    const second = leases.acquire(3);
    const waited = leases.gate(2);
    expect(await settled(waited)).toBe(false);
    leases.release(1, first.leaseId);
    const ticket = await waited;
    expect(await settled(second)).toBe(false);
    // Its request was sent: the grant waits for the answer too.
    inFlight.set(2, 1);
    leases.through(ticket);
    expect(await settled(second)).toBe(false);
    inFlight.set(2, 0);
    leases.requestSettled();
    expect(await settled(second)).toBe(true);
    expect((await leases.stats()).lease).toMatchObject({ client: 3 });
    leases.dispose();
  });
});
