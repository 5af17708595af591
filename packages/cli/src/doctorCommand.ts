import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadCustomServers, ServerRegistry } from '@agent-lsp/lsp';
import { doctorFailures, formatDoctor, runDoctor } from './doctor.js';

export interface DoctorCommandOptions {
  json?: boolean;
  config?: string;
  root?: string;
  quick?: boolean;
  timeout?: string;
}

/**
 * `agent-lsp doctor`: every server we know, found or not; each found one started (in --root, or
 * an empty scratch workspace) to prove it initializes, with its version, initialize time and the
 * tools it can serve; the languages the workspace (--root, or the current directory) has files
 * of. Exit 1 when a found server fails to start or a configured one is missing.
 */
export async function runDoctorCommand(opts: DoctorCommandOptions, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const configPath = opts.config ?? process.env['AGENT_LSP_CONFIG'];
  let custom;
  try {
    custom = configPath ? loadCustomServers(resolve(configPath)) : [];
  } catch (e) {
    err(`error: ${(e as Error).message}`);
    return 2;
  }
  const registry = new ServerRegistry(custom);
  let root: string | undefined;
  if (opts.root !== undefined) {
    try {
      root = realpathSync(resolve(opts.root));
    } catch {
      err(`error: --root ${opts.root} is not a directory`);
      return 2;
    }
  }
  const timeoutMs = opts.timeout !== undefined ? Number(opts.timeout) * 1000 : undefined;
  const configured = new Set(custom.map((s) => s.id));
  const entries = await runDoctor(registry, { configured, ...(root ? { root } : {}), ...(opts.quick ? { quick: true } : {}), ...(timeoutMs && timeoutMs > 0 ? { timeoutMs } : {}) });
  // What the workspace needs: source files per server (a bounded walk of --root or the current directory).
  const { detectLanguages } = await import('@agent-lsp/tools');
  for (const d of await detectLanguages(root ?? process.cwd(), registry)) {
    const entry = entries.find((e) => e.id === d.server.id);
    if (entry) entry.files = d.files;
  }
  out(opts.json ? JSON.stringify(entries, null, 2) : formatDoctor(entries));
  const failures = doctorFailures(entries, configured);
  for (const f of failures) err(`doctor: ${f.server} ${f.error ? `failed to start: ${f.error}` : `is configured but not found: ${f.install ?? ''}`}`);
  return failures.length > 0 ? 1 : 0;
}
