import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopDaemons } from '@agent-lsp/broker';

/** A temporary AGENT_LSP_HOME for `fn(env)`, its brokers stopped and the dir removed afterwards. */
export async function withHome(fn) {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-home-'));
  const env = { ...process.env, AGENT_LSP_HOME: home };
  try {
    return await fn(env);
  } finally {
    await stopDaemons({ all: true, force: true }, env);
    rmSync(home, { recursive: true, force: true });
  }
}
