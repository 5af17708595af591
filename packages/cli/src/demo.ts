import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = join(here, '..', '..', '..');
export const DEMO_WORKSPACE = join(REPO_ROOT, 'examples', 'workspace');

type Out = (line: string) => void;

/**
 * The main job, the way an agent does it: start bin/agent-lsp over stdio with the MCP SDK client,
 * then ask for references, diagnostics and a definition, printing a short transcript with timings.
 */
export async function runDemo(out: Out, workspace = DEMO_WORKSPACE): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(REPO_ROOT, 'bin', 'agent-lsp'), 'serve', '--daemon', 'never'],
    env: { ...process.env } as Record<string, string>,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'agent-lsp-demo', version: '0.1.0' });
  const t0 = Date.now();
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const started = Date.now();
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000, resetTimeoutOnProgress: true, onprogress: () => undefined });
    const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    out(`\n> ${name} ${JSON.stringify(args)}   (${Date.now() - started} ms)`);
    out(text.split('\n').map((l) => `  ${l}`).join('\n'));
    if (result.isError) throw new Error(`${name} failed: ${text}`);
    return result;
  };
  try {
    const tools = await client.listTools();
    out(`agent-lsp is up with ${tools.tools.length} tools (${Date.now() - t0} ms). Workspace: ${workspace}`);
    await call('start_lsp', { root_dir: workspace });
    await call('find_references', { file_path: 'py/shop/pricing.py', position_pattern: 'def @@compute_total(' });
    await call('get_diagnostics', { file_path: 'py/shop/checkout.py' });
    await call('go_to_definition', { file_path: 'ts/src/cart.ts', position_pattern: '${@@formatPrice(this' });
    await call('find_references', { file_path: 'ts/src/money.ts', position_pattern: 'export function @@formatPrice' });
    await call('inspect_symbol', { file_path: 'ts/src/cart.ts', position_pattern: 'class @@Cart' });
    out(`\nDone in ${((Date.now() - t0) / 1000).toFixed(1)} s.`);
  } finally {
    await client.close();
  }
}
