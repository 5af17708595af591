// The brokers' memory budget: a front about to start a broker evicts the least recently used idle
// brokers while all brokers use the budget or more, never one with clients.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerEvictRequest, type BrokerEvictResult } from '@agent-lsp/protocol';
import { daemonDir, listDaemons, makeRoomForBroker, readDaemonFile, type DaemonInfo } from '@agent-lsp/broker';
import { createLogger } from '@agent-lsp/lsp';
import {
  agentLspCli,
  BrokerTestScope,
  brokerPids,
  closeFront,
  daemonStatus,
  EXPECTED_REFERENCES,
  PYTHON_DISTANCE,
  readDaemonJson,
  referenceCount,
  TS_TOTAL_AREA,
  type CliResult,
} from '../helpers/brokers.js';
import { ok, type AgentLspClient } from '../helpers/mcpClient.js';
import { BIN } from '../helpers/paths.js';
import { startTestBroker } from '../helpers/rawBroker.js';
import { descendants, isAlive, waitUntil } from '../helpers/processes.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

type Daemon = DaemonInfo & { dir: string };

/** The ready broker of `root` (several roots share a language here, so by root). */
async function daemonOf(home: string, root: string): Promise<Daemon> {
  let found: Daemon | undefined;
  await waitUntil(
    () => {
      found = readDaemonDirs(home).find((d) => d.root === root);
      return found?.ready === true && found.server.pid !== undefined;
    },
    120_000,
    `a ready broker for ${root}`,
  );
  return found as Daemon;
}

function readDaemonDirs(home: string): Daemon[] {
  const dir = join(home, 'daemons');
  if (!existsSync(dir)) return [];
  const out: Daemon[] = [];
  for (const key of readdirSync(dir)) {
    const info = readDaemonJson(join(dir, key));
    if (info) out.push({ ...info, dir: join(dir, key) });
  }
  return out;
}

/** The broker, its server and the server's children (tsserver): everything eviction must end. */
function processTree(d: Daemon): number[] {
  const server = d.server.pid as number;
  return [d.broker.pid, server, ...descendants(server)];
}

function brokerLog(d: Daemon): string {
  try {
    return readFileSync(join(d.dir, 'broker.log'), 'utf8');
  } catch {
    return '';
  }
}

/** A front on `root` that answered a complete find_references through its broker, and that broker. */
async function usedBroker(home: string, root: string, where: typeof PYTHON_DISTANCE, args: string[] = []): Promise<{ front: AgentLspClient; daemon: Daemon }> {
  const front = await scope.front(home, args);
  ok(await front.call('start_lsp', { root_dir: root }));
  expect(await referenceCount(front, where)).toBe(EXPECTED_REFERENCES);
  return { front, daemon: await daemonOf(home, root) };
}

/** Closes the front and waits until its broker counts no client. */
async function leave(front: AgentLspClient, d: Daemon): Promise<void> {
  await closeFront(front);
  await waitUntil(() => readDaemonJson(d.dir)?.clients === 0, 20_000, `the broker of ${d.root} to have no clients`);
}

/** leave(), then waits until the broker's short grace after a departure has passed: it may be evicted now. */
async function leaveIdle(front: AgentLspClient, d: Daemon): Promise<void> {
  await leave(front, d);
  await new Promise((r) => setTimeout(r, 2_500));
}

/** Sends `$/agentLsp/evict` on a broker's socket as a front would, and returns its answer. */
async function askEviction(socketPath: string): Promise<BrokerEvictResult> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(socketPath);
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
  const rpc = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  rpc.onError(() => undefined);
  rpc.listen();
  try {
    return await rpc.sendRequest(BrokerEvictRequest.type, { reason: 'asked by eviction.test.ts' });
  } finally {
    rpc.dispose();
    socket.destroy();
  }
}

function expectEvicted(d: Daemon, pids: number[], why = /stopping: evicted: brokers use .* memory budget/): void {
  expect(pids.filter(isAlive), `processes of the evicted broker of ${d.root}`).toEqual([]);
  expect(readDaemonJson(d.dir)).toBeUndefined();
  expect(existsSync(d.socket)).toBe(false);
  expect(brokerLog(d)).toMatch(why);
}

function expectAlive(d: Daemon, pids: number[]): void {
  expect(pids.filter((p) => !isAlive(p)), `processes of the broker of ${d.root}`).toEqual([]);
  expect(readDaemonJson(d.dir)?.broker.pid).toBe(d.broker.pid);
  expect(brokerLog(d)).not.toMatch(/evicted/);
}

describe('broker memory budget', () => {
  it('with a one-byte budget, starting the broker of B evicts the idle broker of A: processes ended, daemon.json gone, log says why', async () => {
    const home = scope.home();
    const rootA = scope.root('ts-basic');
    const rootB = scope.root('python-basic');
    const a = await usedBroker(home, rootA, TS_TOTAL_AREA);
    const treeA = processTree(a.daemon);
    expect(treeA.length).toBeGreaterThanOrEqual(3); // broker, typescript-language-server, tsserver
    await leaveIdle(a.front, a.daemon);

    const b = await usedBroker(home, rootB, PYTHON_DISTANCE, ['--max-broker-memory', '1']);
    expectEvicted(a.daemon, treeA);
    expect(brokerPids(home)).toEqual([b.daemon.broker.pid]);
    // The budget is still exceeded by B alone, which is never evicted for its own start.
    expect(readDaemonJson(b.daemon.dir)?.ready).toBe(true);
    expect(await referenceCount(b.front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
  });

  it('never evicts a broker with a connected client; the broker itself refuses while one is attached, and agrees once idle', async () => {
    const home = scope.home();
    const rootA = scope.root('python-basic');
    const rootB = scope.root('python-basic');
    const a = await usedBroker(home, rootA, PYTHON_DISTANCE);
    const treeA = processTree(a.daemon);

    // A's front stays attached while B starts with a budget A alone exceeds.
    const b = await usedBroker(home, rootB, PYTHON_DISTANCE, ['--max-broker-memory', '1']);
    expectAlive(a.daemon, treeA);
    expect(await referenceCount(a.front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);

    // Asked directly (as a front whose view of daemon.json is stale would), the broker says no.
    const refused = await askEviction(a.daemon.socket);
    expect(refused.evicted).toBe(false);
    expect(refused.refused).toMatch(/1 client/);
    expectAlive(a.daemon, treeA);
    expect(await referenceCount(a.front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);

    // With every broker in use, a front that would spawn one more evicts nothing and says so.
    const lines: string[] = [];
    const report = await makeRoomForBroker({ budgetBytes: 1, spawningKey: '0000000000000000', logger: createLogger({ level: 'info', sink: (l) => lines.push(l) }), env: { ...process.env, AGENT_LSP_HOME: home } });
    expect(report).toMatchObject({ overBudget: true, evicted: [], refused: [] });
    expect(lines.join('\n')).toMatch(/brokers use .* of the 1 B memory budget and no more can be evicted \(2 in use, 0 refused\); starting the new broker anyway/);
    expectAlive(a.daemon, treeA);

    // Once its front has gone, it agrees and stops gracefully on its own.
    await leaveIdle(a.front, a.daemon);
    expect(await askEviction(a.daemon.socket)).toEqual({ evicted: true });
    await waitUntil(() => treeA.every((p) => !isAlive(p)) && readDaemonJson(a.daemon.dir) === undefined, 30_000, 'the evicted broker to stop');
    expectEvicted(a.daemon, treeA, /stopping: evicted: asked by eviction\.test\.ts/);
    expect(readDaemonJson(b.daemon.dir)?.broker.pid).toBe(b.daemon.broker.pid);
  });

  it('a broker that no client has attached to yet (its front is still attaching) refuses eviction', async () => {
    const root = scope.root('python-basic');
    const broker = await startTestBroker(root, 'python');
    try {
      const answer = await askEviction(broker.info.socket);
      expect(answer.evicted).toBe(false);
      expect(answer.refused).toMatch(/started moments ago/);
      expect(isAlive(broker.info.broker.pid)).toBe(true);
      expect(readDaemonFile(daemonDir(broker.info.key, { AGENT_LSP_HOME: broker.home }))?.broker.pid).toBe(broker.info.broker.pid);
    } finally {
      await broker.stop();
    }
  });

  it('two fronts starting brokers at once evict the idle one once, and not each other\'s new broker', async () => {
    const home = scope.home();
    const [rootA, rootB, rootC] = [scope.root('python-basic'), scope.root('python-basic'), scope.root('python-basic')] as [string, string, string];
    const a = await usedBroker(home, rootA, PYTHON_DISTANCE);
    const treeA = processTree(a.daemon);
    await leaveIdle(a.front, a.daemon);

    const [b, c] = await Promise.all([
      usedBroker(home, rootB, PYTHON_DISTANCE, ['--max-broker-memory', '1']),
      usedBroker(home, rootC, PYTHON_DISTANCE, ['--max-broker-memory', '1']),
    ]);
    expectEvicted(a.daemon, treeA);
    expect(brokerLog(a.daemon).match(/stopping: evicted/g)).toHaveLength(1);
    for (const d of [b.daemon, c.daemon]) expectAlive(d, processTree(d));
    expect(brokerPids(home)).toEqual([b.daemon.broker.pid, c.daemon.broker.pid].sort((x, y) => x - y));
    expect(await referenceCount(b.front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    expect(await referenceCount(c.front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
  });

  it('evicts the least recently used idle broker first, and only as many as the budget needs', async () => {
    const home = scope.home();
    const [rootA, rootB, rootC] = [scope.root('python-basic'), scope.root('python-basic'), scope.root('python-basic')] as [string, string, string];
    const a = await usedBroker(home, rootA, PYTHON_DISTANCE);
    await leave(a.front, a.daemon);
    const b = await usedBroker(home, rootB, PYTHON_DISTANCE);
    await leave(b.front, b.daemon);
    // A is used again: B is now the least recently used, although A started first.
    const again = await usedBroker(home, rootA, PYTHON_DISTANCE);
    expect(again.daemon.broker.pid).toBe(a.daemon.broker.pid);
    // B left before A did: once A's grace has passed, both may be evicted.
    await leaveIdle(again.front, a.daemon);
    const lastA = Date.parse(readDaemonJson(a.daemon.dir)?.lastActivityAt ?? '');
    const lastB = Date.parse(readDaemonJson(b.daemon.dir)?.lastActivityAt ?? '');
    expect(lastB).toBeLessThan(lastA);

    // A budget that evicting either one satisfies: A's RSS plus half of B's. LRU must pick B.
    const report = await listDaemons({ ...process.env, AGENT_LSP_HOME: home });
    const rss = (d: Daemon) => report.daemons.find((s) => s.key === d.key)?.rssBytes ?? 0;
    const budget = Math.floor(rss(a.daemon) + rss(b.daemon) / 2);
    expect(rss(a.daemon)).toBeGreaterThan(0);
    expect(rss(b.daemon)).toBeGreaterThan(0);
    const treeA = processTree(a.daemon);
    const treeB = processTree(b.daemon);

    const c = await usedBroker(home, rootC, PYTHON_DISTANCE, ['--max-broker-memory', String(budget)]);
    expectEvicted(b.daemon, treeB);
    expectAlive(a.daemon, treeA);
    expect(brokerPids(home)).toEqual([a.daemon.broker.pid, c.daemon.broker.pid].sort((x, y) => x - y));
  });

  it('daemon-status shows the budget, the total usage, and per broker its RSS and last activity', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const a = await usedBroker(home, root, PYTHON_DISTANCE);
    await closeFront(a.front);
    await waitUntil(() => readDaemonJson(a.daemon.dir)?.clients === 0, 20_000, 'the broker to have no clients');

    const json = (await daemonStatus(home)) as Awaited<ReturnType<typeof daemonStatus>> & { memory?: { budget_bytes: number | null; budget_source: string; usage_bytes: number; over_budget: boolean } };
    expect(json.memory?.budget_source).toBe('default');
    expect(json.memory?.budget_bytes).toBeGreaterThan(0);
    const [d] = json.daemons;
    expect(d?.rss_mib).toBeGreaterThan(0);
    expect(json.memory?.usage_bytes).toBeGreaterThanOrEqual(((d?.rss_mib ?? 0) - 1) * 2 ** 20);
    expect(d?.last_activity_at).toBe(readDaemonJson(a.daemon.dir)?.lastActivityAt);

    const text = await agentLspCli(home, ['daemon-status', '--max-broker-memory', '1']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^memory \d+(\.\d)? MiB of a 1 B budget \(--max-broker-memory\); over budget/m);
    expect(text.stdout).toContain(`last activity ${d?.last_activity_at}`);

    const withEnv = await cli(home, ['daemon-status', '--json'], { AGENT_LSP_MAX_BROKER_MEMORY: '3G' });
    expect((JSON.parse(withEnv.stdout) as { memory: unknown }).memory).toMatchObject({ budget_bytes: 3 * 2 ** 30, budget_source: 'env', over_budget: false });
  });

  it('an invalid budget is refused with a clear error, and nothing changes', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const a = await usedBroker(home, root, PYTHON_DISTANCE);
    const tree = processTree(a.daemon);
    await leaveIdle(a.front, a.daemon);
    const before = readDaemonJson(a.daemon.dir);

    const flag = await agentLspCli(home, ['serve', '--daemon', 'auto', '--max-broker-memory', 'lots']);
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toContain('--max-broker-memory: "lots" is not a size; write it like 4G, 512M');
    const env = await cli(home, ['serve', '--daemon', 'auto'], { AGENT_LSP_MAX_BROKER_MEMORY: '0' });
    expect(env.code).not.toBe(0);
    expect(env.stderr).toContain('AGENT_LSP_MAX_BROKER_MEMORY: "0" is less than one byte');
    const status = await agentLspCli(home, ['daemon-status', '--max-broker-memory', '-5G']);
    expect(status.code).not.toBe(0);
    expect(status.stderr).toContain('"-5G" is not a size');

    expectAlive(a.daemon, tree);
    expect(readDaemonJson(a.daemon.dir)).toEqual(before);
    expect(brokerPids(home)).toEqual([a.daemon.broker.pid]);
  });
});

/** `agent-lsp <args>` with this home and extra environment. */
function cli(home: string, args: string[], extra: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, AGENT_LSP_HOME: home, ...extra }, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}
