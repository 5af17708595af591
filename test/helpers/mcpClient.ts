import { appendFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, TEST_FRONT } from './paths.js';
import { temporaryHome } from './testHome.js';

export interface AgentLspClient {
  client: Client;
  /** Pid of the agent-lsp front process. */
  pid: number;
  call(name: string, args: Record<string, unknown>, options?: { onProgress?: (message: string | undefined) => void }): Promise<ToolAnswer>;
  close(): Promise<void>;
}

export interface ToolAnswer {
  isError: boolean;
  text: string;
  data: Record<string, unknown>;
  raw: CallToolResult;
}

/** Test hooks a front can be started with (test/helpers/testFront.mjs injects them; production has none). */
export interface TestFrontHooks {
  /** Evaluations hold their section this long after pushing the overlay, before settling. */
  holdSectionMs?: number;
  /** ... or until this file exists. */
  holdSectionUntil?: string;
  /** Evaluations block this process (no timer runs) this long after pushing the overlay. */
  stallSectionMs?: number;
  /** Created while an evaluation holds its section there, removed after. */
  sectionMarker?: string;
  /** The Nth file write of the process waits until its call is cancelled or the process killed. */
  pauseAfterFiles?: number;
  /** The longest step of a workspace evaluation; null: the whole evaluation in one section. */
  evaluationStepMs?: number | null;
  /** Lease timing through a broker. */
  lease?: { renewEveryMs?: number; maxLeaseMs?: number };
}

/**
/**
 * Starts bin/agent-lsp over stdio with the MCP SDK client, exactly as an agent does (with `hooks`,
 * the test entry that injects them). Close it in afterEach/afterAll: that ends the front, which
 * ends its servers. Without an AGENT_LSP_HOME in `env`, the front gets a temporary one, removed on close.
 */
export async function startAgentLsp(options: { args?: string[]; env?: Record<string, string>; cwd?: string; hooks?: TestFrontHooks } = {}): Promise<AgentLspClient> {
  const ownHome = options.env?.['AGENT_LSP_HOME'] === undefined ? temporaryHome() : undefined;
  const entry = options.hooks ? [TEST_FRONT, JSON.stringify(options.hooks)] : [BIN];
  // AGENT_LSP_TEST_AS_PROGRAM=1: bin/agent-lsp run as a program, as npm's bin link runs it (from the
  // start-up snapshot when one is built; see test/e2e/startupSnapshot.test.ts).
  const asProgram = !options.hooks && process.env['AGENT_LSP_TEST_AS_PROGRAM'] === '1';
  const transport = new StdioClientTransport({
    command: asProgram ? BIN : process.execPath,
    args: [...(asProgram ? [] : entry), 'serve', '--daemon', 'never', ...(options.args ?? [])],
    env: { ...(process.env as Record<string, string>), ...(ownHome ? { AGENT_LSP_HOME: ownHome.home } : {}), ...options.env },
    stderr: 'pipe',
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stderr = '';
  // AGENT_LSP_TEST_STDERR_LOG: every front's stderr also goes to this file, for the trace of a run
  // that failed (with AGENT_LSP_LOG=debug, the messages each server exchanged).
  const stderrLog = process.env['AGENT_LSP_TEST_STDERR_LOG'];
  transport.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-20_000);
    if (stderrLog) appendFileSync(stderrLog, d);
  });
  const client = new Client({ name: 'agent-lsp-test', version: '0.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('agent-lsp did not start');
  return {
    client,
    pid,
    async call(name, args, opts) {
      const raw = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 300_000,
        resetTimeoutOnProgress: true,
        ...(opts?.onProgress ? { onprogress: (p: { message?: string }) => opts.onProgress?.(p.message) } : {}),
      })) as CallToolResult;
      const text = raw.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return { isError: raw.isError === true, text, data: (raw.structuredContent ?? {}), raw };
    },
    async close() {
      await client.close();
      ownHome?.remove();
    },
  };
}

/** Asserts a tool answered without error and returns its structured content. */
export function ok(answer: ToolAnswer): Record<string, unknown> {
  if (answer.isError) throw new Error(`tool failed: ${answer.text}`);
  return answer.data;
}
