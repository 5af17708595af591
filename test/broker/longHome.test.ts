// Unix socket paths are limited (107 bytes on Linux); a long AGENT_LSP_HOME must still work.
import { existsSync, lstatSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  agentLspCli,
  BrokerTestScope,
  brokerPids,
  daemonStatus,
  EXPECTED_REFERENCES,
  PYTHON_DISTANCE,
  readyDaemon,
  referenceCount,
} from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { isAlive, waitUntil } from '../helpers/processes.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

describe('a home path longer than 150 bytes', () => {
  it('puts the socket in a short fallback directory and works as usual', async () => {
    const home = scope.home(151);
    expect(Buffer.byteLength(home)).toBeGreaterThan(150);
    const root = scope.root('python-basic');

    const front = await scope.front(home);
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);

    const info = await readyDaemon(home, 'python');
    expect(info.dir.startsWith(home)).toBe(true);
    expect(info.socket.startsWith(`${info.dir}/`)).toBe(false);
    expect(info.socket.startsWith(home)).toBe(false);
    expect(Buffer.byteLength(info.socket)).toBeLessThanOrEqual(107);
    expect(lstatSync(info.socket).isSocket()).toBe(true);

    // A second front finds the broker through that socket.
    const second = await scope.front(home);
    ok(await second.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(second, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    expect(brokerPids(home)).toEqual([info.broker.pid]);

    // Stopping removes the fallback socket too.
    const stopped = await agentLspCli(home, ['daemon-stop', '--all']);
    expect(stopped.code, stopped.stdout + stopped.stderr).toBe(0);
    await waitUntil(() => !isAlive(info.broker.pid), 15_000, 'the broker to exit');
    expect(existsSync(info.socket)).toBe(false);
  });

  it('keeps the brokers of two such homes serving one root apart', async () => {
    const root = scope.root('python-basic');
    const brokerIn = async (home: string) => {
      const front = await scope.front(home);
      ok(await front.call('start_lsp', { root_dir: root }));
      expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
      return readyDaemon(home, 'python');
    };
    const homeA = scope.home(151);
    const homeB = scope.home(151);
    const a = await brokerIn(homeA);
    const b = await brokerIn(homeB);
    // Same root and profile, so the same key: only the home tells them apart.
    expect(a.key).toBe(b.key);
    expect(a.socket).not.toBe(b.socket);
    expect(brokerPids(homeA)).toEqual([a.broker.pid]);
    expect(brokerPids(homeB)).toEqual([b.broker.pid]);

    // Stopping everything of one home, orphans included, leaves the other home's broker alone.
    const stopA = await agentLspCli(homeA, ['daemon-stop', '--all', '--force']);
    expect(stopA.code, stopA.stderr).toBe(0);
    expect(stopA.stdout.trim().split('\n')).toEqual([`stopped python ${root} (SIGTERM)`]);
    await waitUntil(() => !isAlive(a.broker.pid), 15_000, "home A's broker to exit");
    expect(existsSync(a.socket)).toBe(false);
    expect(isAlive(b.broker.pid)).toBe(true);
    expect(lstatSync(b.socket).isSocket()).toBe(true);
    expect((await daemonStatus(homeB)).daemons).toEqual([expect.objectContaining({ broker_pid: b.broker.pid, state: 'ready' })]);
  });
});
