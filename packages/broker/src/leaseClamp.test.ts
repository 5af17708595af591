import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@agent-lsp/lsp';
import { LeaseManager, type LeaseHost } from './lease.js';
import { clampLeaseMs, DEFAULT_LEASE_MS, MAX_LEASE_MS, MIN_LEASE_MS } from './leaseLength.js';
import { SharedDocuments } from './sharedDocuments.js';

function leases(): LeaseManager {
  const host: LeaseHost = {
    logger: createLogger({ level: 'error' }),
    documents: new SharedDocuments(() => undefined),
    serverDocuments: () => undefined,
    inFlightOfOthers: () => 0,
    sectionActive: () => undefined,
    restored: () => undefined,
    clientCount: () => 1,
    requests: () => ({ inFlight: 0, queued: 0 }),
    leaseExpired: () => undefined,
  };
  return new LeaseManager(host);
}

describe('lease length', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is clamped to [MIN_LEASE_MS, MAX_LEASE_MS], the default when absent', () => {
    expect(clampLeaseMs(2e9)).toBe(MAX_LEASE_MS);
    expect(clampLeaseMs(2 ** 40)).toBe(MAX_LEASE_MS);
    expect(clampLeaseMs(0)).toBe(MIN_LEASE_MS);
    expect(clampLeaseMs(-5)).toBe(MIN_LEASE_MS);
    expect(clampLeaseMs(30_000)).toBe(30_000);
    expect(clampLeaseMs(undefined)).toBe(DEFAULT_LEASE_MS);
    expect(clampLeaseMs(Number.NaN)).toBe(DEFAULT_LEASE_MS);
  });

  it('holds a lease asked for 2^31 ms for MAX_LEASE_MS, not 1 ms (acquire and renew)', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const manager = leases();
    const lease = await manager.acquire(1, 2 ** 31);
    expect(lease.expiresAt).toBe(1_000_000 + MAX_LEASE_MS);
    vi.advanceTimersByTime(10);
    expect((await manager.stats()).lease?.client).toBe(1);
    const renewed = manager.renew(1, lease.leaseId, 2e9);
    expect(renewed.expiresAt).toBe(1_000_010 + MAX_LEASE_MS);
    vi.advanceTimersByTime(MAX_LEASE_MS - 1);
    expect((await manager.stats()).lease?.client).toBe(1);
    vi.advanceTimersByTime(1);
    expect((await manager.stats()).lease).toBeNull();
    manager.dispose();
  });

  it('gives a lease asked for 0 ms at least MIN_LEASE_MS', async () => {
    vi.useFakeTimers({ now: 5_000 });
    const manager = leases();
    const lease = await manager.acquire(2, 0);
    expect(lease.expiresAt).toBe(5_000 + MIN_LEASE_MS);
    vi.advanceTimersByTime(MIN_LEASE_MS - 1);
    expect((await manager.stats()).lease?.client).toBe(2);
    manager.dispose();
  });
});
