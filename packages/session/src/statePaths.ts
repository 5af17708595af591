import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Durable state (checkpoints, blobs, audit log): `$AGENT_LSP_HOME/state`, else
 * `${XDG_STATE_HOME:-~/.local/state}/agent-lsp`, where cache cleaners do not reach.
 */
export function stateHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env['AGENT_LSP_HOME'];
  if (home) return join(home, 'state');
  return join(env['XDG_STATE_HOME'] || join(homedir(), '.local', 'state'), 'agent-lsp');
}

/** The key of a workspace's state: a hash of its root's realpath. */
export function workspaceKey(root: string): string {
  return createHash('sha256').update(realpathSync(root)).digest('hex').slice(0, 16);
}

/** `<home>/workspaces/<key>/`, created private (0700) on first use. */
export function workspaceStateDir(home: string, root: string): string {
  const dir = join(home, 'workspaces', workspaceKey(root));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The default audit log, shared by every workspace of a home (entries carry their root). */
export function defaultAuditLogPath(home: string): string {
  return join(home, 'audit.jsonl');
}
