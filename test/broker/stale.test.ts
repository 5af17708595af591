// A daemon.json that names no live broker is cleaned, and a fresh broker takes over.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentLspCli,
  BrokerTestScope,
  brokerPids,
  brokerStarts,
  brokerTree,
  closeFront,
  daemonStatus,
  EXPECTED_REFERENCES,
  killPid,
  PYTHON_DISTANCE,
  readDaemonJson,
  readyDaemon,
  referenceCount,
} from '../helpers/brokers.js';
import type { DaemonInfo } from '@agent-lsp/broker';
import { ok } from '../helpers/mcpClient.js';
import { isAlive, waitUntil } from '../helpers/processes.js';

const scope = new BrokerTestScope();
let sleeper: ChildProcess | undefined;

afterEach(async () => {
  if (sleeper?.pid !== undefined && isAlive(sleeper.pid)) sleeper.kill('SIGKILL');
  sleeper = undefined;
  await scope.cleanup();
});

/** Starts a front on a python-basic copy, asks once, and returns what the ready broker wrote. */
async function brokerFor(home: string, root: string) {
  const front = await scope.front(home);
  ok(await front.call('start_lsp', { root_dir: root }));
  expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
  await closeFront(front);
  return readyDaemon(home, 'python');
}

/** Stops the broker cleanly, then leaves a daemon.json behind that names `pid` as its broker. */
async function stopAndNamePid(home: string, old: DaemonInfo & { dir: string }, pid: number): Promise<void> {
  const stopped = await agentLspCli(home, ['daemon-stop', '--all']);
  expect(stopped.code, stopped.stdout + stopped.stderr).toBe(0);
  await waitUntil(() => !isAlive(old.broker.pid), 10_000, 'the first broker to exit');
  writeFileSync(join(old.dir, 'daemon.json'), JSON.stringify({ ...old, dir: undefined, broker: { ...old.broker, pid } }, null, 2));
}

describe('a stale daemon.json', () => {
  it('naming a dead broker (killed with SIGKILL: daemon.json, socket and lifetime lock left behind) is replaced by a fresh broker', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const old = await brokerFor(home, root);

    // A crash: the broker gets no chance to clean up. Its server is ours to end too (by pid).
    const tree = brokerTree(home);
    for (const pid of tree) killPid(pid);
    await waitUntil(() => tree.every((pid) => !isAlive(pid)), 10_000, 'the killed broker and its server to exit');
    expect(readDaemonJson(old.dir)?.broker.pid).toBe(old.broker.pid);
    expect(existsSync(old.socket)).toBe(true);
    expect(existsSync(join(old.dir, 'lifetime.lock'))).toBe(true);
    const status = await daemonStatus(home);
    expect(status.daemons).toEqual([]);
    expect(status.stale).toEqual([expect.objectContaining({ key: old.key, dir: old.dir })]);

    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const fresh = await readyDaemon(home, 'python');
    expect(fresh.dir).toBe(old.dir);
    expect(fresh.broker.pid).not.toBe(old.broker.pid);
    expect(isAlive(fresh.broker.pid)).toBe(true);
    expect(brokerPids(home)).toEqual([fresh.broker.pid]);
    expect(brokerStarts(fresh.dir)).toEqual([old.broker.pid, fresh.broker.pid]);
  });

  it('naming a live process that is not a broker is replaced by a fresh broker, and that process is left alone', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const old = await brokerFor(home, root);
    // Its pid now belongs to something else: a plain `sleep`, alive, no broker.
    sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
    const sleepPid = sleeper.pid as number;
    await stopAndNamePid(home, old, sleepPid);
    const status = await daemonStatus(home);
    expect(status.daemons).toEqual([]);
    expect(status.stale).toEqual([expect.objectContaining({ key: old.key, reason: expect.stringContaining(String(sleepPid)) })]);

    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const fresh = await readyDaemon(home, 'python');
    expect(fresh.broker.pid).not.toBe(sleepPid);
    expect(fresh.broker.pid).not.toBe(old.broker.pid);
    expect(brokerPids(home)).toEqual([fresh.broker.pid]);
    expect(isAlive(sleepPid)).toBe(true);
  });

  it("naming the test runner's own pid is replaced by a fresh broker", async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const old = await brokerFor(home, root);
    await stopAndNamePid(home, old, process.pid);
    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const fresh = await readyDaemon(home, 'python');
    expect(fresh.broker.pid).not.toBe(process.pid);
    expect(brokerPids(home)).toEqual([fresh.broker.pid]);
  });
});
