/** How long a lease lasts unless renewed (ms). */
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
