import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultAuditLogPath, formatAuditEntry, readAuditTail, stateHome } from '@agent-lsp/session';

export interface AuditTailOptions {
  lines: string;
  root?: string;
  auditLog?: string;
  json?: boolean;
}

/** `agent-lsp audit tail`: the last N tool calls (of one workspace root with --root). Returns the exit code. */
export function runAuditTail(opts: AuditTailOptions, out: (s: string) => void, err: (s: string) => void): number {
  const n = Number(opts.lines);
  if (!Number.isInteger(n) || n <= 0) {
    err(`-n must be a positive whole number, not ${opts.lines}.`);
    return 2;
  }
  let root: string | undefined;
  if (opts.root !== undefined) {
    try {
      root = realpathSync(opts.root);
    } catch {
      err(`--root ${opts.root} does not exist.`);
      return 2;
    }
  }
  const path = opts.auditLog !== undefined ? resolve(opts.auditLog) : defaultAuditLogPath(stateHome());
  const entries = readAuditTail(path, n, root);
  if (opts.json) for (const e of entries) out(JSON.stringify(e));
  else if (entries.length === 0) out(`No tool calls recorded in ${path}${root ? ` for ${root}` : ''}.`);
  else for (const e of entries) out(formatAuditEntry(e));
  return 0;
}
