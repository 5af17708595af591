import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** One line of the audit log: one tool call, read-only or not. */
export interface AuditEntry {
  /** ISO 8601, when the call started. */
  time: string;
  call_id: string;
  /** Which agent made the call when one process serves several (`http:<session>` for `serve --http`). */
  agent?: string;
  tool: string;
  /** The primary workspace root at the end of the call, if there was one. */
  root: string | null;
  /** sha256 of the arguments as canonical JSON (keys sorted): identifies a call without storing its text. */
  args_sha256: string;
  outcome: 'ok' | 'error' | 'cancelled';
  error?: string;
  duration_ms: number;
  /** Files the call wrote or tried to write (absolute). */
  files: string[];
  rolled_back: boolean;
  rollback_reason?: string;
  checkpoint_id?: string;
  /** Server queries of the call answered by speculative prefetch (absent when none were). */
  served_from_cache?: number;
}

/** JSON with object keys sorted at every level, so equal arguments hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

/** Never throws: arguments nested too deep to serialize (the call is refused) hash by the error instead. */
export function argumentsHash(args: unknown): string {
  let text: string;
  try {
    text = canonicalJson(args ?? {});
  } catch (err) {
    text = `unserializable: ${(err as Error).message}`;
  }
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Append-only JSONL of every tool call. Never rolled back: a rollback is itself a line. Each entry
 * is one write(2) with O_APPEND, so lines of several fronts sharing the file never interleave.
 */
export class AuditLog {
  constructor(readonly path: string) {}

  append(entry: AuditEntry): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    appendFileSync(this.path, JSON.stringify(entry) + '\n', { mode: 0o600 });
  }
}

/** The last `n` entries (of `root` when given), oldest first. Damaged lines are skipped. */
export function readAuditTail(path: string, n: number, root?: string): AuditEntry[] {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const entries: AuditEntry[] = [];
  for (const line of raw.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as AuditEntry;
      if (root === undefined || entry.root === root) entries.push(entry);
    } catch {
      // A line cut short by a crash: the others are still good.
    }
  }
  return n > 0 ? entries.slice(-n) : [];
}

/** One line per entry, for `agent-lsp audit tail`. */
export function formatAuditEntry(e: AuditEntry): string {
  const files = e.files.length ? ` files=${e.files.length}` : '';
  const cp = e.checkpoint_id ? ` checkpoint=${e.checkpoint_id}` : '';
  const rb = e.rolled_back ? ` ROLLED BACK (${e.rollback_reason ?? 'unknown reason'})` : '';
  const err = e.outcome !== 'ok' && e.error ? `: ${e.error}` : '';
  return `${e.time} ${e.tool} ${e.outcome} ${e.duration_ms}ms${files}${cp}${rb}${err}`;
}
