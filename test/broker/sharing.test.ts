// Fronts in daemon mode share one warm broker (and one language server) per root and language.
import { afterEach, describe, expect, it } from 'vitest';
import {
  BrokerTestScope,
  brokerPids,
  closeFront,
  daemonStatus,
  EXPECTED_REFERENCES,
  pidsInOrder,
  PYRIGHT,
  PYTHON_DISTANCE,
  readyDaemon,
  referenceCount,
  serverPids,
  TS_TOTAL_AREA,
  TYPESCRIPT_LANGUAGE_SERVER,
} from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { isAlive } from '../helpers/processes.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

describe('brokers shared by fronts', () => {
  it('two fronts on one root share one broker and one server per language; a third front finds them warm', async () => {
    const home = scope.home();
    const root = scope.root('python-basic', 'ts-basic');

    const [first, second] = await Promise.all([scope.front(home), scope.front(home)]);
    for (const front of [first, second]) {
      ok(await front.call('start_lsp', { root_dir: root }));
      expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
      expect(await referenceCount(front, TS_TOTAL_AREA)).toBe(EXPECTED_REFERENCES);
    }

    const python = await readyDaemon(home, 'python');
    const typescript = await readyDaemon(home, 'typescript');
    expect(python.root).toBe(root);
    expect(typescript.root).toBe(root);
    // One broker process per language for this home, the ones daemon.json names...
    expect(brokerPids(home)).toEqual(pidsInOrder(python.broker.pid, typescript.broker.pid));
    // ...and one language server each: neither front started a server of its own.
    expect(serverPids(home, PYRIGHT)).toEqual([python.server.pid]);
    expect(serverPids(home, TYPESCRIPT_LANGUAGE_SERVER)).toEqual([typescript.server.pid]);

    const status = await daemonStatus(home);
    expect(status.daemons).toHaveLength(2);
    for (const info of [python, typescript]) {
      const d = status.daemons.find((s) => s.language === info.language);
      expect(d, JSON.stringify(status)).toMatchObject({ broker_pid: info.broker.pid, server_pid: info.server.pid, clients: 2, root });
    }

    await Promise.all([closeFront(first), closeFront(second)]);
    expect(isAlive(python.broker.pid)).toBe(true);
    expect(isAlive(typescript.broker.pid)).toBe(true);

    const third = await scope.front(home);
    ok(await third.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(third, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    expect(await referenceCount(third, TS_TOTAL_AREA)).toBe(EXPECTED_REFERENCES);
    const pythonAgain = await readyDaemon(home, 'python');
    const typescriptAgain = await readyDaemon(home, 'typescript');
    expect(pythonAgain.broker.pid).toBe(python.broker.pid);
    expect(pythonAgain.server.pid).toBe(python.server.pid);
    expect(typescriptAgain.broker.pid).toBe(typescript.broker.pid);
    expect(typescriptAgain.server.pid).toBe(typescript.server.pid);
    expect(brokerPids(home)).toEqual(pidsInOrder(python.broker.pid, typescript.broker.pid));
    expect(serverPids(home, PYRIGHT)).toEqual([python.server.pid]);
    expect(serverPids(home, TYPESCRIPT_LANGUAGE_SERVER)).toEqual([typescript.server.pid]);
  });
});
