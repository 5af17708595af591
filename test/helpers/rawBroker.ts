import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { InitializeResult, PublishDiagnosticsParams, Registration } from 'vscode-languageserver-protocol';
import { brokerKey, daemonDir, readDaemonFile, type DaemonInfo } from '@agent-lsp/broker';
import { loadCustomServers, ServerRegistry } from '@agent-lsp/lsp';
import { BIN } from './paths.js';
import { descendants, isAlive, waitUntil } from './processes.js';

/**
 * A broker started by the test itself (`agent-lsp daemon-broker`, not detached), with its own
 * AGENT_LSP_HOME, for tests that talk plain LSP to its socket. `stop()` ends it and everything it
 * started, by pid.
 */
export interface TestBroker {
  home: string;
  info: DaemonInfo;
  process: ChildProcess;
  log(): string;
  stop(): Promise<void>;
}

export async function startTestBroker(root: string, language: string, options: { config?: string; idleTimeoutMs?: number; maxInFlight?: number; env?: Record<string, string> } = {}): Promise<TestBroker> {
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-raw-home-')));
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, AGENT_LSP_HOME: home, AGENT_LSP_LOG: 'debug' };
  if (options.config) env['AGENT_LSP_CONFIG'] = options.config;
  const registry = new ServerRegistry(options.config ? loadCustomServers(options.config) : []);
  const server = registry.forLanguage(language);
  const resolved = server.resolve(root);
  if (!resolved) throw new Error(`${server.displayName} not installed`);
  const key = brokerKey(root, resolved.profileFingerprint);
  const child = spawn(process.execPath, [BIN, 'daemon-broker', '--root', root, '--language', server.id, '--key', key, '--idle-timeout', String(options.idleTimeoutMs ?? 600_000), ...(options.maxInFlight !== undefined ? ['--max-in-flight', String(options.maxInFlight)] : [])], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-200_000)));
  const dir = daemonDir(key, env);
  let info: DaemonInfo | undefined;
  await waitUntil(() => (info = readDaemonFile(dir))?.ready === true, 120_000, `broker for ${root} to be ready`);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return {
    home,
    info: info as DaemonInfo,
    process: child,
    log: () => log,
    async stop() {
      const tree = descendants(child.pid as number);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      }
      for (const pid of [child.pid as number, ...tree]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
      await waitUntil(() => [child.pid as number, ...tree].every((p) => !isAlive(p)), 10_000, 'broker processes to end');
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A plain LSP client on a broker socket (vscode-jsonrpc only, nothing of agent-lsp's front). */
export interface RawClient {
  rpc: MessageConnection;
  socket: Socket;
  init: InitializeResult;
  /** Diagnostics pushed to this client, in arrival order. */
  pushes: PublishDiagnosticsParams[];
  registrations: Registration[];
  notifications: { method: string; params: unknown }[];
  close(): void;
}

/**
 * `workDoneProgress` (default true): the client says it supports server-created progress, and
 * answers `window/workDoneProgress/create` (recorded in `notifications`, in order, as if it were one).
 */
export async function rawClient(socketPath: string, options: { canPull: boolean; workDoneProgress?: boolean; onApplyEdit?: (params: unknown) => unknown }): Promise<RawClient> {
  const socket = connect(socketPath);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  const rpc = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  const pushes: PublishDiagnosticsParams[] = [];
  const registrations: Registration[] = [];
  const notifications: { method: string; params: unknown }[] = [];
  rpc.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    pushes.push(p);
  });
  rpc.onNotification((method: string, params: unknown) => {
    notifications.push({ method, params });
  });
  // vscode-jsonrpc hands $/progress to progress handlers, not to the catch-all above.
  rpc.onUnhandledProgress((params) => {
    notifications.push({ method: '$/progress', params });
  });
  rpc.onRequest('client/registerCapability', (p: { registrations: Registration[] }) => {
    registrations.push(...p.registrations);
    return null;
  });
  rpc.onRequest('window/workDoneProgress/create', (params: unknown) => {
    notifications.push({ method: 'window/workDoneProgress/create', params });
    return null;
  });
  rpc.onRequest('workspace/applyEdit', (p: unknown) => options.onApplyEdit?.(p) ?? { applied: false, failureReason: 'not expected' });
  rpc.listen();
  const init = await rpc.sendRequest<InitializeResult>('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {
      textDocument: { publishDiagnostics: { versionSupport: true }, ...(options.canPull ? { diagnostic: { dynamicRegistration: true } } : {}) },
      ...(options.workDoneProgress !== false ? { window: { workDoneProgress: true } } : {}),
    },
  });
  await rpc.sendNotification('initialized', {});
  return {
    rpc,
    socket,
    init,
    pushes,
    registrations,
    notifications,
    close() {
      rpc.dispose();
      socket.destroy();
    },
  };
}
