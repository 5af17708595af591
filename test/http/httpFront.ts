import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestFrontHooks, ToolAnswer } from '../helpers/mcpClient.js';
import { BIN, TEST_FRONT } from '../helpers/paths.js';
import { isAlive, waitUntil } from '../helpers/processes.js';

/** `agent-lsp serve --http` started by a test: where it listens, its token, its process. */
export interface HttpFront {
  url: URL;
  /** The bearer token it printed (undefined with --no-auth). */
  token: string | undefined;
  pid: number;
  child: ChildProcess;
  stderr(): string;
  /** An MCP session over Streamable HTTP, as an agent's client opens one. */
  session(token?: string): Promise<HttpSession>;
  /** SIGTERM, then waits for the process to exit. */
  stop(): Promise<number | null>;
}

export interface HttpSession {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  /** DELETE of the session, then the client is closed. */
  terminate(): Promise<void>;
  close(): Promise<void>;
}

/** Starts `agent-lsp serve --http --port 0` (with test hooks through the test front when given) and waits for its address. */
export async function startHttpFront(home: string, options: { args?: string[]; env?: Record<string, string>; hooks?: TestFrontHooks } = {}): Promise<HttpFront> {
  const entry = options.hooks ? [TEST_FRONT, JSON.stringify(options.hooks)] : [BIN];
  // AGENT_LSP_TEST_AS_PROGRAM=1: bin/agent-lsp run as a program (from the start-up snapshot when built), as in test/helpers/mcpClient.ts.
  const asProgram = !options.hooks && process.env['AGENT_LSP_TEST_AS_PROGRAM'] === '1';
  const child = spawn(asProgram ? BIN : process.execPath, [...(asProgram ? [] : entry), 'serve', '--http', '--port', '0', ...(options.args ?? [])], {
    env: { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home, ...options.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  await waitUntil(() => exited || /listening on http:\/\/\S+\/mcp/.test(stderr), 30_000, 'the HTTP server to listen');
  const listening = /listening on (http:\/\/\S+\/mcp)/.exec(stderr);
  if (!listening?.[1]) throw new Error(`agent-lsp serve --http did not start: ${stderr}`);
  const url = new URL(listening[1]);
  const token = options.env?.['AGENT_LSP_TOKEN'] ?? /shown once\): (\S+)/.exec(stderr)?.[1] ?? tokenArgument(options.args ?? []);
  const pid = child.pid as number;
  const exitCode = new Promise<number | null>((resolve) => (exited ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code))));
  return {
    url,
    token,
    pid,
    child,
    stderr: () => stderr,
    session: (t) => openSession(url, t === undefined ? token : t),
    async stop() {
      if (isAlive(pid)) child.kill('SIGTERM');
      const code = await exitCode;
      await waitUntil(() => !isAlive(pid), 15_000, `HTTP front ${pid} to exit`);
      return code;
    },
  };
}

function tokenArgument(args: string[]): string | undefined {
  const i = args.indexOf('--token');
  return i >= 0 ? args[i + 1] : undefined;
}

export async function openSession(url: URL, token: string | undefined): Promise<HttpSession> {
  const transport = new StreamableHTTPClientTransport(url, token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {});
  const client = new Client({ name: 'agent-lsp-http-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    async call(name, args) {
      const raw = (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000, resetTimeoutOnProgress: true })) as CallToolResult;
      const text = raw.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return { isError: raw.isError === true, text, data: raw.structuredContent ?? {}, raw };
    },
    async terminate() {
      await transport.terminateSession();
      await client.close();
    },
    close: () => client.close(),
  };
}

/** A raw request to the server (no MCP client): for what a client library would never send. */
export async function rawRequest(url: URL, init: { method?: string; headers?: Record<string, string>; body?: string; path?: string }): Promise<{ status: number; body: string }> {
  const target = new URL(init.path ?? url.pathname, url);
  const res = await fetch(target, {
    method: init.method ?? 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  return { status: res.status, body: await res.text() };
}

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});
