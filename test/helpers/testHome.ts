import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What AGENT_LSP_HOME is in every test process (set by the vitest setup file guardHome.ts): a
 * regular file, so a CLI or session that a test started without a home of its own fails on its
 * first write of state (ENOTDIR names this path) instead of writing audit lines, checkpoints or
 * brokers into the user's state dir.
 */
export const FORGOTTEN_HOME = join(tmpdir(), 'agent-lsp-test-started-the-CLI-without-its-own-AGENT_LSP_HOME');

export function installForgottenHomeGuard(): void {
  writeFileSync(FORGOTTEN_HOME, 'A test spawned agent-lsp without a temporary AGENT_LSP_HOME (see test/helpers/testHome.ts).\n');
  process.env['AGENT_LSP_HOME'] = FORGOTTEN_HOME;
}

/** A fresh, private AGENT_LSP_HOME and the function that removes it. */
export function temporaryHome(): { home: string; remove(): void } {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-test-home-'));
  return { home, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** The environment of a CLI child: this process's, with `home` as AGENT_LSP_HOME. */
export function envWithHome(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home, ...extra };
}
