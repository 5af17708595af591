// Small helpers for latency figures.
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summarize(samples) {
  const s = [...samples].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), n: s.length };
}

export const ms = (x) => (x < 10 ? `${x.toFixed(2)} ms` : `${Math.round(x)} ms`);
export const mib = (bytes) => `${Math.round(bytes / 1048576)} MiB`;
