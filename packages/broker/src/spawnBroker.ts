import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brokerLogPath, rotateBrokerLog } from './brokerLog.js';
import { BROKER_COMMAND } from './processInfo.js';

/** bin/agent-lsp of this checkout: packages/broker/dist → ../../../bin. */
export const AGENT_LSP_BIN = fileURLToPath(new URL('../../../bin/agent-lsp', import.meta.url));

export interface SpawnBrokerOptions {
  dir: string;
  key: string;
  root: string;
  serverId: string;
  idleTimeoutMs: number;
  /** The front's custom servers file: the broker must know the same servers. */
  configPath?: string;
  /** start_lsp's scope (part of the broker's profile). */
  scope?: readonly string[];
}

/**
 * Starts `agent-lsp daemon-broker` detached, logging to its daemon dir. Its stdio must not be ours:
 * an inherited stdout would keep the MCP client's pipe open after the front exits.
 */
export function spawnBroker(options: SpawnBrokerOptions): number {
  const logPath = brokerLogPath(options.dir);
  rotateBrokerLog(logPath);
  // Appending: the broker rotates the file in place (see rotatingLogSink).
  const log = openSync(logPath, 'a', 0o600);
  try {
    const child = spawn(
      process.execPath,
      [
        AGENT_LSP_BIN,
        BROKER_COMMAND,
        '--root',
        options.root,
        '--language',
        options.serverId,
        '--key',
        options.key,
        '--idle-timeout',
        String(options.idleTimeoutMs),
        ...(options.configPath ? ['--config', options.configPath] : []),
        ...(options.scope?.length ? ['--scope', JSON.stringify(options.scope)] : []),
      ],
      { detached: true, stdio: ['ignore', log, log], cwd: options.root, env: process.env },
    );
    child.unref();
    if (child.pid === undefined) throw new Error('could not start the broker process');
    return child.pid;
  } finally {
    closeSync(log);
  }
}
