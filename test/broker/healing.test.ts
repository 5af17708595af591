// Faults that must heal: a removed socket file, a stopped (wedged) broker, a stopped (hung) server.
import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentLspCli,
  BrokerTestScope,
  brokerPids,
  brokerStarts,
  closeFront,
  EXPECTED_REFERENCES,
  killPid,
  PYTHON_DISTANCE,
  readDaemonJson,
  readyDaemon,
  referenceCount,
} from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { isAlive, waitUntil } from '../helpers/processes.js';

const scope = new BrokerTestScope();
/** Processes a test stopped with SIGSTOP: continued (and, if told, killed) whatever the test did. */
const stopped: { pid: number; kill: boolean }[] = [];
let impostor: Server | undefined;

afterEach(async () => {
  impostor?.close();
  impostor = undefined;
  for (const { pid, kill } of stopped.splice(0)) {
    if (!isAlive(pid)) continue;
    process.kill(pid, 'SIGCONT');
    if (kill) killPid(pid);
  }
  await scope.cleanup();
});

/** A front on a python-basic copy that got a complete answer, and what its ready broker wrote. */
async function pythonBroker(home: string, root: string, env: Record<string, string> = {}) {
  const front = await scope.front(home, [], { env });
  ok(await front.call('start_lsp', { root_dir: root }));
  expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
  return { front, info: await readyDaemon(home, 'python') };
}

describe('faults that heal', () => {
  it('a broker whose socket file was removed binds it again; the next front attaches to it, and no other broker is spawned', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const { front: first, info } = await pythonBroker(home, root);
    await closeFront(first);
    rmSync(info.socket);

    const next = await scope.front(home);
    ok(await next.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(next, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    expect(readDaemonJson(info.dir)?.broker.pid).toBe(info.broker.pid);
    expect(brokerPids(home)).toEqual([info.broker.pid]);
    expect(brokerStarts(info.dir)).toEqual([info.broker.pid]);
  });

  it('a wedged (stopped) broker is ended and replaced by the next front, which gets its answer from a new broker', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const { front: first, info } = await pythonBroker(home, root);
    await closeFront(first);
    const wedgedServer = info.server.pid as number;
    stopped.push({ pid: info.broker.pid, kill: true });
    process.kill(info.broker.pid, 'SIGSTOP');

    const next = await scope.front(home);
    ok(await next.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(next, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const fresh = await readyDaemon(home, 'python');
    expect(fresh.broker.pid).not.toBe(info.broker.pid);
    await waitUntil(() => !isAlive(info.broker.pid) && !isAlive(wedgedServer), 10_000, 'the wedged broker and its server to be gone');
    expect(brokerPids(home)).toEqual([fresh.broker.pid]);
  });

  // Issue 29 item 6: a call waiting on a hung server, and the calls after it, do not wait for minutes
  // with no word: they fail with an error naming the server, the root and restart_lsp_server.
  it('a hung (stopped) server shows as unresponsive, fails the call waiting on it and new calls with a clear error, recovers when it answers, and is replaced by restart_lsp_server', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    // The broker probes its server every second (answer within 2 s), not every 5 s (within 10 s).
    const { front, info } = await pythonBroker(home, root, { AGENT_LSP_HEALTH_PROBE_MS: '1000' });
    const server = info.server.pid as number;
    stopped.push({ pid: server, kill: false });
    process.kill(server, 'SIGSTOP');

    // Sent to the server, which never reads it: answered once the broker's probe finds it hung.
    const waiting = await front.call('find_symbol', { query: 'Point' });
    expect(waiting.isError).toBe(true);
    for (const part of ['pyright', root, 'unresponsive', 'restart_lsp_server']) expect(waiting.text).toContain(part);
    await waitUntil(() => readDaemonJson(info.dir)?.state === 'unresponsive', 60_000, 'daemon.json to say the server is unresponsive');
    expect(readDaemonJson(info.dir)?.ready).toBe(false);
    const status = ok(await front.call('get_daemon_status', {}));
    expect(status['daemons']).toEqual([expect.objectContaining({ state: 'unresponsive', ready: false, server_pid: server })]);
    // While it stays hung, a new call does not wait for it.
    const next = await front.call('find_symbol', { query: 'route_length' });
    expect(next.isError).toBe(true);
    for (const part of ['unresponsive', 'restart_lsp_server']) expect(next.text).toContain(part);

    process.kill(server, 'SIGCONT');
    await waitUntil(() => readDaemonJson(info.dir)?.ready === true, 60_000, 'the server to be ready again');
    expect(readDaemonJson(info.dir)?.state).toBe('ready');
    expect(readDaemonJson(info.dir)?.server.pid).toBe(server);
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    expect(JSON.stringify(ok(await front.call('find_symbol', { query: 'route_length' })))).toContain('route_length');

    // Hung again: the restart the error suggests replaces it.
    process.kill(server, 'SIGSTOP');
    const restarted = ok(await front.call('restart_lsp_server', { language_id: 'python' }));
    const servers = restarted['servers'] as { pid?: number; previous_pid?: number }[];
    expect(servers[0]?.previous_pid).toBe(server);
    expect(servers[0]?.pid).not.toBe(server);
    await waitUntil(() => !isAlive(server), 15_000, 'the hung server to be ended');
    expect(ok(await front.call('find_symbol', { query: 'Point' }))['total']).toBeGreaterThan(0);
  });

  it('a socket path answered by a process that is not a broker is reported as such, and left alone', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const { front: first, info } = await pythonBroker(home, root);
    await closeFront(first);
    const stop = await agentLspCli(home, ['daemon-stop', '--all']);
    expect(stop.code, stop.stdout + stop.stderr).toBe(0);
    await waitUntil(() => !isAlive(info.broker.pid), 10_000, 'the broker to stop');
    // Another program took the path: it greets everyone with something that is not LSP.
    const server = createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    impostor = server;
    await new Promise<void>((r) => server.listen(info.socket, () => r()));

    const next = await scope.front(home);
    ok(await next.call('start_lsp', { root_dir: root }));
    const answer = await next.call('find_references', PYTHON_DISTANCE);
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(info.socket);
    expect(answer.text).toContain('not as an agent-lsp broker');
    expect(existsSync(info.socket)).toBe(true);
    expect(brokerPids(home)).toEqual([]);
  });
});
