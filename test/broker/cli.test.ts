// daemon-status shows what runs; daemon-stop ends it and leaves nothing behind.
import { existsSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentLspCli,
  BrokerTestScope,
  brokerPids,
  closeFront,
  daemonStatus,
  EXPECTED_REFERENCES,
  PYTHON_DISTANCE,
  readDaemonJson,
  readyDaemon,
  referenceCount,
  TS_TOTAL_AREA,
} from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { descendants, isAlive, waitUntil } from '../helpers/processes.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

/** Nothing of a stopped daemon is left: no process, no socket, no lock, no daemon.json. */
function expectGone(info: { dir: string; socket: string }, pids: number[]): void {
  expect(pids.filter(isAlive)).toEqual([]);
  expect(existsSync(info.socket)).toBe(false);
  expect(readDaemonJson(info.dir)).toBeUndefined();
  // Only the log may stay (it explains what happened).
  expect(readdirSync(info.dir).filter((f) => f !== 'broker.log')).toEqual([]);
}

describe('daemon-status and daemon-stop', () => {
  it('status shows both brokers of a root; stop --root --language, then --all, end them and clean up', async () => {
    const home = scope.home();
    const root = scope.root('python-basic', 'ts-basic');
    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    expect(await referenceCount(front, TS_TOTAL_AREA)).toBe(EXPECTED_REFERENCES);
    const python = await readyDaemon(home, 'python');
    const typescript = await readyDaemon(home, 'typescript');

    // --json: what runs, with the front connected.
    await waitUntil(() => readDaemonJson(python.dir)?.clients === 1 && readDaemonJson(typescript.dir)?.clients === 1, 10_000, 'both brokers to count the front');
    const status = await daemonStatus(home);
    expect(status.stale).toEqual([]);
    expect(status.orphans).toEqual([]);
    expect(status.daemons).toHaveLength(2);
    for (const info of [python, typescript]) {
      const d = status.daemons.find((s) => s.language === info.language);
      expect(d, JSON.stringify(status)).toMatchObject({
        language: info.language,
        root,
        state: 'ready',
        ready: true,
        clients: 1,
        broker_pid: info.broker.pid,
        server_pid: info.server.pid,
        socket: info.socket,
      });
      expect(d?.rss_mib).toBeGreaterThan(0);
      expect(isAlive(info.broker.pid)).toBe(true);
      expect(isAlive(info.server.pid as number)).toBe(true);
    }

    // Plain text names the root and the languages.
    const text = await agentLspCli(home, ['daemon-status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(root);
    expect(text.stdout).toMatch(/python/);
    expect(text.stdout).toMatch(/typescript/);

    // --root with --language: only that broker stops, though a front is still connected to it.
    const pythonPids = [python.broker.pid, python.server.pid as number, ...descendants(python.server.pid as number)];
    const stopPython = await agentLspCli(home, ['daemon-stop', '--root', root, '--language', 'python']);
    expect(stopPython.code, stopPython.stderr).toBe(0);
    expect(stopPython.stdout).toContain(`stopped python ${root}`);
    expect(stopPython.stdout).not.toContain('typescript');
    await waitUntil(() => pythonPids.every((pid) => !isAlive(pid)), 15_000, 'the python broker and pyright to exit');
    expectGone(python, pythonPids);
    expect(brokerPids(home)).toEqual([typescript.broker.pid]);
    expect(isAlive(typescript.server.pid as number)).toBe(true);

    // --all: the rest.
    const typescriptPids = [typescript.broker.pid, typescript.server.pid as number, ...descendants(typescript.server.pid as number)];
    expect(typescriptPids.length).toBeGreaterThan(2); // typescript-language-server runs tsserver
    const stopAll = await agentLspCli(home, ['daemon-stop', '--all']);
    expect(stopAll.code, stopAll.stderr).toBe(0);
    expect(stopAll.stdout).toContain(`stopped typescript ${root}`);
    await waitUntil(() => typescriptPids.every((pid) => !isAlive(pid)), 15_000, 'the typescript broker, its server and tsserver to exit');
    expectGone(typescript, typescriptPids);
    expect(brokerPids(home)).toEqual([]);

    await closeFront(front);
    const none = await daemonStatus(home);
    expect(none.daemons).toEqual([]);
    expect(none.stale).toEqual([]);
    const again = await agentLspCli(home, ['daemon-stop', '--all']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing to stop.');
  });
});

describe('a front whose broker was stopped', () => {
  it('starts a new broker on its next call and answers as before', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const old = await readyDaemon(home, 'python');

    const stopped = await agentLspCli(home, ['daemon-stop', '--all']);
    expect(stopped.code, stopped.stderr).toBe(0);
    await waitUntil(() => !isAlive(old.broker.pid), 15_000, 'the broker to exit');

    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const fresh = await readyDaemon(home, 'python');
    expect(fresh.broker.pid).not.toBe(old.broker.pid);
    expect(brokerPids(home)).toEqual([fresh.broker.pid]);
  });
});

describe('the idle timeout', () => {
  it('ends a broker once no client has been connected for that long', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const front = await scope.front(home, ['--idle-timeout', '1500']);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const info = await readyDaemon(home, 'python');
    expect(info.idleTimeoutMs).toBe(1500);
    const pids = [info.broker.pid, info.server.pid as number, ...descendants(info.server.pid as number)];

    // While the front is connected, the timeout does not run: the broker still lives after it would have expired.
    await new Promise((r) => setTimeout(r, 2500));
    expect(isAlive(info.broker.pid)).toBe(true);

    await closeFront(front);
    await waitUntil(() => pids.every((pid) => !isAlive(pid)) && readDaemonJson(info.dir) === undefined, 30_000, 'the idle broker to stop');
    expectGone(info, pids);
  });
});
