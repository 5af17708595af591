/**
 * The version a server's initialize answer gives, as people write it: gopls sends its whole build
 * information as JSON (2 KB: Go version, every dependency), whose `Version` is its own.
 */
export function readableServerVersion(version: string | undefined): string | undefined {
  if (!version?.startsWith('{')) return version;
  try {
    const info = JSON.parse(version) as { Version?: unknown; Main?: { Version?: unknown } };
    const own = info.Version ?? info.Main?.Version;
    return typeof own === 'string' ? own : version;
  } catch {
    return version;
  }
}

/** An initialize answer's serverInfo with its version readableServerVersion's. */
export function readableServerInfo(info: { name: string; version?: string } | undefined): { name: string; version?: string } | undefined {
  const version = readableServerVersion(info?.version);
  return info && { name: info.name, ...(version !== undefined ? { version } : {}) };
}
