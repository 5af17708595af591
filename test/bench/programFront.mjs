// Fronts as users start them: bin/agent-lsp run as a program (npm's bin link runs it so), whose sh
// part gives node the fronts' flags and starts it from the start-up snapshot once one is built for
// this bundle, install, node binary and those flags. Shared by the memory benchmarks.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const BIN = fileURLToPath(new URL('../../bin/agent-lsp', import.meta.url));

/** A front started as a program (stdin/stdout are the MCP pipe), with the client connected. */
export async function programFront(env, args = ['serve']) {
  const transport = new StdioClientTransport({ command: BIN, args, env, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return { client, transport, pid: transport.pid };
}

/** Whether fronts in `env` may start from a snapshot at all. */
export const snapshotsOff = (env) => env.AGENT_LSP_NO_SNAPSHOT === '1' || env.AGENT_LSP_NO_BUNDLE === '1' || Boolean(env.NODE_OPTIONS);

/**
 * Makes sure fronts in `env` (which names its own AGENT_LSP_SNAPSHOT_DIR) start from the snapshot:
 * a first front answers one tool call (a query's answer is what starts the build), then this waits
 * for the blob's id. Returns whether there is one.
 */
export async function ensureSnapshot(env) {
  if (snapshotsOff(env)) return false;
  const dir = env.AGENT_LSP_SNAPSHOT_DIR;
  if (!dir) throw new Error('ensureSnapshot: set AGENT_LSP_SNAPSHOT_DIR (the checkout\'s dist/ is left alone)');
  const id = join(dir, 'agent-lsp.blob.id');
  if (existsSync(id)) return true;
  const front = await programFront(env);
  try {
    await front.client.callTool({ name: 'get_speculation_stats', arguments: {} });
  } finally {
    await front.client.close();
  }
  return waitForSnapshot(dir);
}

/** Waits (up to 2 minutes) for the blob a front builds in the background in `dir`; whether it is there. */
export async function waitForSnapshot(dir) {
  const id = join(dir, 'agent-lsp.blob.id');
  for (let i = 0; i < 1200 && !existsSync(id); i++) await new Promise((r) => setTimeout(r, 100));
  return existsSync(id);
}

/**
 * A process's memory, bytes, from /proc: RSS (every page it maps, shared ones counted in full),
 * private memory (USS: pages only it maps), PSS (each shared page divided among the processes
 * mapping it: summed over processes, the machine's real total), and peak RSS.
 */
export function processMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kib = (text, field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
    return { rss: kib(status, 'VmRSS'), uss: kib(rollup, 'Private_Clean') + kib(rollup, 'Private_Dirty'), pss: kib(rollup, 'Pss'), peak: kib(status, 'VmHWM') };
  } catch {
    return { rss: 0, uss: 0, pss: 0, peak: 0 };
  }
}

/**
 * Calls `onMark(name, ms, cpuMs)` for every start-up mark a front started with AGENT_LSP_STARTUP_TRACE
 * writes on `stderr` (`agent-lsp-mark <name> <ms>[ cpu=<ms>]`, one per line; cpuMs undefined when absent).
 */
export function readMarks(stderr, onMark) {
  let buffered = '';
  stderr?.on('data', (chunk) => {
    buffered += chunk.toString();
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      const m = /^agent-lsp-mark (.+?) (\d+(?:\.\d+)?)(?: cpu=(\d+(?:\.\d+)?))?$/.exec(line);
      if (m) onMark(m[1], Number(m[2]), m[3] === undefined ? undefined : Number(m[3]));
    }
  });
}
