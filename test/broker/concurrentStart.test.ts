// Many fronts racing to start the broker of a new root: the spawn lock and the socket leave one.
import { afterEach, describe, expect, it } from 'vitest';
import {
  BrokerTestScope,
  brokerPids,
  brokerStarts,
  daemonsByLanguage,
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

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

const FRONTS = 8;

describe('fronts started at the same instant', () => {
  it(`${FRONTS} fronts on one new root start exactly one broker per language, and all get complete answers`, async () => {
    const home = scope.home();
    const root = scope.root('python-basic', 'ts-basic');
    const fronts = await Promise.all(Array.from({ length: FRONTS }, () => scope.front(home)));
    // start_lsp without a language starts no server: every front is set up before the race begins.
    await Promise.all(fronts.map(async (front) => ok(await front.call('start_lsp', { root_dir: root }))));
    expect(brokerPids(home)).toEqual([]);

    // 2 × 8 discoveries at once on a root no broker serves yet.
    const counts = await Promise.all(fronts.map((front) => Promise.all([referenceCount(front, PYTHON_DISTANCE), referenceCount(front, TS_TOTAL_AREA)])));
    expect(counts).toEqual(Array.from({ length: FRONTS }, () => [EXPECTED_REFERENCES, EXPECTED_REFERENCES]));

    const python = await readyDaemon(home, 'python');
    const typescript = await readyDaemon(home, 'typescript');
    expect([...daemonsByLanguage(home).keys()].sort()).toEqual(['python', 'typescript']);
    expect(brokerPids(home)).toEqual(pidsInOrder(python.broker.pid, typescript.broker.pid));
    expect(serverPids(home, PYRIGHT)).toEqual([python.server.pid]);
    expect(serverPids(home, TYPESCRIPT_LANGUAGE_SERVER)).toEqual([typescript.server.pid]);
    // Not even a broker that lost the race and exited: each daemon dir saw one start.
    expect(brokerStarts(python.dir)).toEqual([python.broker.pid]);
    expect(brokerStarts(typescript.dir)).toEqual([typescript.broker.pid]);

    const status = await daemonStatus(home);
    expect(status.orphans).toEqual([]);
    expect(status.stale).toEqual([]);
    expect(status.daemons.map((d) => ({ language: d.language, clients: d.clients })).sort((a, b) => a.language.localeCompare(b.language))).toEqual([
      { language: 'python', clients: FRONTS },
      { language: 'typescript', clients: FRONTS },
    ]);
  });
});
