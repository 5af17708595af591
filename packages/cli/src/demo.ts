import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { stopDaemons } from '@agent-lsp/broker';
import { AGENT_LSP_VERSION } from '@agent-lsp/protocol';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(here, '..', '..', '..');
export const DEMO_WORKSPACE = join(REPO_ROOT, 'examples', 'workspace');

type Out = (line: string) => void;

/** One agent session: a fresh `bin/agent-lsp` over stdio, driven with the MCP SDK client. */
async function session(env: Record<string, string>, out: Out, body: (call: (name: string, args: Record<string, unknown>) => Promise<void>) => Promise<void>): Promise<void> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(REPO_ROOT, 'bin', 'agent-lsp'), 'serve'], env, stderr: 'inherit' });
  const client = new Client({ name: 'agent-lsp-demo', version: AGENT_LSP_VERSION });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const started = Date.now();
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000, resetTimeoutOnProgress: true, onprogress: () => undefined });
    const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    out(`\n> ${name} ${JSON.stringify(args)}   (${Date.now() - started} ms)`);
    out(text.split('\n').map((l) => `  ${l}`).join('\n'));
    if (result.isError) throw new Error(`${name} failed: ${text}`);
  };
  try {
    await body(call);
  } finally {
    await client.close();
  }
}

/**
 * The main job, the way agents do it: a first session starts warm brokers (cold: the servers index
 * the workspace), a second session finds them warm. Brokers live in a temporary home that is
 * stopped and removed at the end, so the demo leaves nothing running.
 */
export async function runDemo(out: Out, workspace = DEMO_WORKSPACE, tsServer?: string): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-demo-'));
  // --ts-server reaches the sessions as the environment variable `serve` reads.
  const env = { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home, ...(tsServer ? { AGENT_LSP_TS_SERVER: tsServer } : {}) };
  const t0 = Date.now();
  try {
    out(`agent-lsp demo on ${workspace}\n\n# Session 1: cold — brokers start and index the workspace`);
    await session(env, out, async (call) => {
      await call('start_lsp', { root_dir: workspace });
      await call('find_references', { file_path: 'py/shop/pricing.py', position_pattern: 'def @@compute_total(' });
      await call('get_diagnostics', { file_path: 'py/shop/checkout.py' });
      await call('go_to_definition', { file_path: 'ts/src/cart.ts', position_pattern: '${@@formatPrice(this' });
      await call('find_references', { file_path: 'ts/src/money.ts', position_pattern: 'export function @@formatPrice' });
      await call('inspect_symbol', { file_path: 'ts/src/cart.ts', position_pattern: 'class @@Cart' });
    });
    out('\n# Session 2: a new agent process — the brokers are already warm');
    await session(env, out, async (call) => {
      await call('start_lsp', { root_dir: workspace });
      await call('find_references', { file_path: 'py/shop/pricing.py', position_pattern: 'def @@compute_total(' });
      await call('get_diagnostics', { file_path: 'ts/src/report.ts' });
      await call('get_daemon_status', {});
    });
  } finally {
    const stopped = await stopDaemons({ all: true }, { ...process.env, AGENT_LSP_HOME: home });
    out(`\nStopped ${stopped.filter((s) => s.how !== 'cleaned').length} broker(s); done in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
    rmSync(home, { recursive: true, force: true });
  }
}
