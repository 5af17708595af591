import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrokerClientInfo, BrokerProgress, BrokerState } from '@agent-lsp/protocol';
import { writeFileAtomic, writeFileAtomicSync } from '@agent-lsp/lsp';

export const DAEMON_SCHEMA = 1;

/** What a broker says about itself in `<daemon dir>/daemon.json`. */
export interface DaemonInfo {
  schema: number;
  key: string;
  root: string;
  language: string;
  profile: string;
  socket: string;
  broker: { pid: number; version: string; startedAt: string };
  server: { name: string; version?: string; command: string[]; pid?: number; companionPid?: number };
  state: BrokerState;
  ready: boolean;
  readyAt?: string;
  progress?: BrokerProgress;
  clients: number;
  /** Who the clients are (kind, pid, since); absent in files of older brokers. */
  clientList?: BrokerClientInfo[];
  lastActivityAt: string;
  idleTimeoutMs: number;
  restarts: number;
}

export function daemonFilePath(dir: string): string {
  return join(dir, 'daemon.json');
}

/** Reads daemon.json; undefined when absent or unreadable (a broker may be writing it). */
export function readDaemonFile(dir: string): DaemonInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(daemonFilePath(dir), 'utf8')) as DaemonInfo;
    return info.schema === DAEMON_SCHEMA ? info : undefined;
  } catch {
    return undefined;
  }
}

/** Atomic (lsp's one atomic writer): readers see the old file or the new one, never half of one. */
export function writeDaemonFile(dir: string, info: DaemonInfo): void {
  writeFileAtomicSync(daemonFilePath(dir), JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
}

/** writeDaemonFile off the event loop (the broker's status writes); the temp file goes on failure. */
export function writeDaemonFileAsync(dir: string, info: DaemonInfo): Promise<void> {
  return writeFileAtomic(daemonFilePath(dir), JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
}
