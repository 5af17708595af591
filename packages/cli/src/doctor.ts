import { execFileSync } from 'node:child_process';
import type { ServerDefinition, ServerRegistry } from '@agent-lsp/lsp';

export interface DoctorEntry {
  server: string;
  languages: string[];
  found: boolean;
  version?: string;
  source?: string;
  command?: string[];
  details?: Record<string, string>;
  install?: string;
}

/** Runs `<server> --version` (or its own version arguments); a server that cannot even say its version will not serve either. */
function commandVersion(command: readonly string[], versionArgs: readonly string[]): { version: string } | { error: string } {
  const [bin] = command;
  if (!bin) return { error: 'empty command' };
  try {
    const out = execFileSync(bin, versionArgs, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return { version: out.split('\n').find((l) => l.trim())?.trim() ?? 'unknown' };
  } catch (err) {
    const raw = (err as { stderr?: unknown }).stderr;
    const stderr = (typeof raw === 'string' ? raw : Buffer.isBuffer(raw) ? raw.toString('utf8') : '').trim().split('\n')[0];
    return { error: stderr || (err as Error).message };
  }
}

export function checkServer(server: ServerDefinition, root: string): DoctorEntry {
  const resolved = server.resolve(root);
  const entry: DoctorEntry = { server: server.displayName, languages: [...server.languageIds], found: resolved !== undefined };
  if (!resolved) {
    entry.install = server.installHint;
    return entry;
  }
  entry.source = resolved.source;
  entry.command = resolved.command;
  entry.details = resolved.details;
  if (resolved.version) {
    entry.version = resolved.version;
    return entry;
  }
  const versionArgs = server.versionArgs ?? ['--version'];
  const probe = commandVersion(resolved.command, versionArgs);
  if ('version' in probe) entry.version = probe.version;
  else {
    entry.found = false;
    entry.install = `${resolved.command[0]} is on PATH but does not run (\`${versionArgs.join(' ')}\` failed: ${probe.error}). ${server.installHint}`;
  }
  return entry;
}

export function runDoctor(registry: ServerRegistry, root: string): DoctorEntry[] {
  return registry.servers.map((s) => checkServer(s, root));
}

export function formatDoctor(entries: readonly DoctorEntry[]): string {
  const lines: string[] = [];
  for (const e of entries) {
    lines.push(`${e.found ? '✓' : '✗'} ${e.server} (${e.languages.join(', ')})`);
    if (e.found) {
      lines.push(`    version: ${e.version ?? 'unknown'}`);
      lines.push(`    from:    ${e.source}: ${e.command?.join(' ')}`);
      for (const [k, v] of Object.entries(e.details ?? {})) lines.push(`    ${k}: ${v}`);
    } else {
      lines.push(`    not found. ${e.install}`);
    }
  }
  return lines.join('\n');
}
