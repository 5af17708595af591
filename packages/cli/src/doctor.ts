import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger, startDirectConnection, type ResolvedServer, type ServerDefinition, type ServerRegistry } from '@agent-lsp/lsp';
import { toolSupport } from './toolCapabilities.js';

export interface DoctorEntry {
  server: string;
  id: string;
  languages: string[];
  found: boolean;
  /** Source files of this server's languages in the workspace (with --root, or the current directory). */
  files?: number;
  version?: string;
  source?: string;
  command?: string[];
  details?: Record<string, string>;
  install?: string;
  /** From a real start: milliseconds from spawn to the initialize answer. */
  initialize_ms?: number;
  /** Our tools it serves, and those it lacks the request for. */
  tools?: string[];
  missing_tools?: string[];
  /** Found but it did not start or initialize. */
  error?: string;
}

export interface DoctorOptions {
  /** Start the servers: in this workspace, else in an empty scratch one. */
  root?: string;
  /** Servers the user configured (--config, positional forms): missing is a failure for them. */
  configured: ReadonlySet<string>;
  /** Only check that executables exist and say their version, without starting them. */
  quick?: boolean;
  /** How long a server may take to initialize. */
  timeoutMs?: number;
}

/** Runs `<server> --version` (or its own version arguments); a server that cannot even say its version will not serve either. */
function commandVersion(command: readonly string[], versionArgs: readonly string[]): Promise<{ version: string } | { error: string }> {
  const [bin] = command;
  if (!bin) return Promise.resolve({ error: 'empty command' });
  return new Promise((resolve) => {
    execFile(bin, versionArgs, { encoding: 'utf8', timeout: 10_000 }, (err, stdout, stderr) => {
      if (!err) return resolve({ version: stdout.split('\n').find((l) => l.trim())?.trim() ?? 'unknown' });
      resolve({ error: stderr.trim().split('\n')[0] || err.message });
    });
  });
}

/** Found or not, where from, and the version it says (`--version`, or the package's for a bundled one). */
export async function checkServer(server: ServerDefinition, root: string): Promise<DoctorEntry> {
  const resolved = server.resolve(root);
  const entry: DoctorEntry = { server: server.displayName, id: server.id, languages: [...server.languageIds], found: resolved !== undefined };
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
  // Servers without a version flag (empty versionArgs) say it in their initialize answer.
  const versionArgs = server.versionArgs ?? ['--version'];
  if (versionArgs.length === 0) return entry;
  const probe = await commandVersion(resolved.command, versionArgs);
  if ('version' in probe) entry.version = probe.version;
  else {
    entry.found = false;
    entry.install = `${resolved.command[0]} is on PATH but does not run (\`${versionArgs.join(' ')}\` failed: ${probe.error}). ${server.installHint}`;
  }
  return entry;
}

/** Starts the server as an agent would, times its initialize, and reads which of our tools it can serve. */
async function probeServer(server: ServerDefinition, resolved: ResolvedServer, workspace: string, entry: DoctorEntry, timeoutMs: number): Promise<void> {
  const started = Date.now();
  const logger = createLogger({ level: 'error', sink: () => undefined });
  let timer: NodeJS.Timeout | undefined;
  const connecting = startDirectConnection({ server, rootDir: workspace, workspaceFolders: [workspace], logger, resolved, initializeTimeoutMs: timeoutMs });
  try {
    const conn = await Promise.race([
      connecting,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no initialize answer within ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
    entry.initialize_ms = Date.now() - started;
    const info = conn.serverInfo;
    if (info && !entry.version) entry.version = `${info.name}${info.version ? ` ${info.version}` : ''}`;
    const { supported, unsupported } = toolSupport((m) => conn.supports(m));
    entry.tools = supported;
    entry.missing_tools = unsupported;
    await conn.shutdown();
  } catch (err) {
    entry.error = (err as Error).message;
    // A late connection is still ours to end.
    void connecting.then((c) => c.shutdown(), () => undefined);
  } finally {
    clearTimeout(timer);
  }
}

/** Servers checked at once: most of a check is waiting for a process to start and answer. */
const DOCTOR_CONCURRENCY = 4;

export async function runDoctor(registry: ServerRegistry, options: DoctorOptions): Promise<DoctorEntry[]> {
  const workspace = options.root ?? mkdtempSync(join(tmpdir(), 'agent-lsp-doctor-'));
  const scratch = options.root === undefined ? workspace : undefined;
  try {
    const entries: DoctorEntry[] = new Array<DoctorEntry>(registry.servers.length);
    const check = async (index: number) => {
      const server = registry.servers[index] as ServerDefinition;
      const entry = await checkServer(server, workspace);
      const resolved = entry.found ? server.resolve(workspace) : undefined;
      if (resolved && !options.quick) await probeServer(server, resolved, workspace, entry, options.timeoutMs ?? 60_000);
      if (entry.found && !entry.version) entry.version = 'unknown (it has no --version and its initialize answer names none)';
      entries[index] = entry;
    };
    let next = 0;
    await Promise.all(
      Array.from({ length: DOCTOR_CONCURRENCY }, async () => {
        while (next < registry.servers.length) await check(next++);
      }),
    );
    return entries;
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/** Failed: a found server that did not start, or a configured one that is missing. */
export function doctorFailures(entries: readonly DoctorEntry[], configured: ReadonlySet<string>): DoctorEntry[] {
  return entries.filter((e) => e.error !== undefined || (!e.found && configured.has(e.id)));
}

export function formatDoctor(entries: readonly DoctorEntry[]): string {
  const lines: string[] = [];
  const found = entries.filter((e) => e.found);
  const missing = entries.filter((e) => !e.found);
  for (const e of found) {
    const mark = e.error ? '✗' : '✓';
    const needed = e.files ? `, ${e.files} files here` : '';
    lines.push(`${mark} ${e.server} (${e.languages.join(', ')}${needed})`);
    lines.push(`    version: ${e.version ?? 'unknown'}`);
    lines.push(`    from:    ${e.source}: ${e.command?.join(' ')}`);
    for (const [k, v] of Object.entries(e.details ?? {})) lines.push(`    ${k}: ${v}`);
    if (e.error) lines.push(`    FAILED:  ${e.error}`);
    if (e.initialize_ms !== undefined) lines.push(`    initialize: ${e.initialize_ms} ms`);
    if (e.tools) lines.push(`    tools:   ${e.tools.length} of ${e.tools.length + (e.missing_tools?.length ?? 0)}${e.missing_tools?.length ? ` (lacks ${e.missing_tools.join(', ')})` : ' (all)'}`);
  }
  const neededMissing = missing.filter((e) => e.files);
  for (const e of neededMissing) lines.push(`✗ ${e.server} (${e.languages.join(', ')}, ${e.files} files here): not found. ${e.install}`);
  const others = missing.filter((e) => !e.files);
  if (others.length > 0) {
    lines.push(`Not installed (${others.length}): ${others.map((e) => e.server).join(', ')}.`);
    const withHint = others.filter((e) => e.install?.includes('does not run'));
    for (const e of withHint) lines.push(`✗ ${e.server}: ${e.install}`);
    lines.push('Install one with `agent-lsp servers install LANG[:SERVER]` (`agent-lsp servers list` shows every route); `agent-lsp doctor --json` says how to install each.');
  }
  return lines.join('\n');
}
