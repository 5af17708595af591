import { mkdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import { BrokerEvictRequest, type BrokerEvictResult } from '@agent-lsp/protocol';
import type { Logger } from '@agent-lsp/lsp';
import { brokersUsage, evictUntilUnderBudget, type EvictionOutcome } from './evictionPlan.js';
import { formatBytes } from './memoryBudget.js';
import { daemonsHome } from './paths.js';
import { pidAlive } from './processInfo.js';
import { listDaemons, type DaemonStatus } from './status.js';
import { awaitBrokerStopped } from './stop.js';

const LOCK_STALE_MS = 10_000;
/** How long a broker may take to answer an eviction request. */
const ASK_TIMEOUT_MS = 5_000;

export interface MakeRoomOptions {
  /** The memory budget of all brokers of this home; Infinity: none. */
  budgetBytes: number;
  /** The broker about to be spawned: never a victim. */
  spawningKey: string;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
}

export type MakeRoomReport = EvictionOutcome<DaemonStatus> & { budgetBytes: number; overBudget: boolean };

/**
 * One lock per home serializes evictions: two fronts spawning at once measure one after the other,
 * so the second sees what the first freed and nobody evicts twice. Beside the daemons dir, not in
 * it (daemon-status reads every directory there as a daemon's).
 */
function evictLockTarget(env: NodeJS.ProcessEnv): string {
  return join(dirname(daemonsHome(env)), 'broker-eviction');
}

/**
 * Called by a front before it spawns a new broker: when the brokers of this home (each with its
 * language server's process tree, RSS from /proc) already use the budget or more, the least
 * recently used idle ones are asked to stop, one by one, until usage is under the budget. A broker
 * with clients is never asked, and refuses if one arrived meanwhile. When none can go, the new
 * broker is spawned anyway (an agent is never refused a server) and the log says so. Never throws.
 */
export async function makeRoomForBroker(options: MakeRoomOptions): Promise<MakeRoomReport | undefined> {
  const { budgetBytes, logger } = options;
  const env = options.env ?? process.env;
  if (!Number.isFinite(budgetBytes)) return undefined;
  try {
    // Cheap look first: no lock while under the budget (the usual case).
    if (brokersUsage((await listDaemons(env, { orphans: false })).daemons) < budgetBytes) return undefined;
    const target = evictLockTarget(env);
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    const release = await lockfile.lock(target, {
      realpath: false,
      stale: LOCK_STALE_MS,
      update: LOCK_STALE_MS / 2,
      // An eviction in progress may take a stop's full escalation (about 20 s a broker).
      retries: { retries: 600, minTimeout: 100, maxTimeout: 200 },
      onCompromised: (err) => logger.warn(`eviction lock compromised: ${err.message}`),
    });
    try {
      return await evictUnderLock(options, env);
    } finally {
      await release().catch(() => undefined);
    }
  } catch (err) {
    logger.warn(`could not keep brokers within the memory budget (${(err as Error).message}); starting the new broker anyway`);
    return undefined;
  }
}

async function evictUnderLock(options: MakeRoomOptions, env: NodeJS.ProcessEnv): Promise<MakeRoomReport> {
  const { budgetBytes, spawningKey, logger } = options;
  // Measured again under the lock: another front may have evicted, or spawned, meanwhile.
  const { daemons } = await listDaemons(env, { orphans: false });
  const usage = brokersUsage(daemons);
  const outcome = await evictUntilUnderBudget(daemons, budgetBytes, spawningKey, async (d) => {
    const reason = `brokers use ${formatBytes(usage)} of a ${formatBytes(budgetBytes)} memory budget and a new broker is starting (front pid ${process.pid}); this one was the least recently used idle broker (last activity ${d.lastActivityAt}, ${formatBytes(d.rssBytes ?? 0)})`;
    const answer = await askToEvict(d, reason);
    if (answer !== true) return answer;
    const stopped = await awaitBrokerStopped(d);
    logger.info(`evicted the idle ${d.language} broker of ${d.root} (pid ${d.brokerPid}, ${formatBytes(d.rssBytes ?? 0)}, last activity ${d.lastActivityAt}): ${stopped.how}`);
    return true;
  });
  for (const r of outcome.refused) logger.info(`the ${r.daemon.language} broker of ${r.daemon.root} (pid ${r.daemon.brokerPid}) was not evicted: ${r.why}`);
  const overBudget = outcome.usageAfter >= budgetBytes;
  if (overBudget) {
    const busy = daemons.filter((d) => d.clients > 0).length;
    logger.warn(
      `brokers use ${formatBytes(outcome.usageAfter)} of the ${formatBytes(budgetBytes)} memory budget and no more can be evicted (${busy} in use, ${outcome.refused.length} refused); starting the new broker anyway`,
    );
  }
  return { ...outcome, budgetBytes, overBudget };
}

/**
 * Asks one broker to stop if idle. True when it agreed (or closed the connection, which a broker
 * starting its stop may do before the answer leaves, and it is then gone within the wait); else
 * why not. The broker is the judge: it counts its own clients when the request arrives.
 */
async function askToEvict(d: DaemonStatus, reason: string): Promise<true | string> {
  let socket: Socket;
  try {
    socket = await connectSocket(d.socket);
  } catch (err) {
    return `its socket did not accept a connection (${(err as Error).message})`;
  }
  const rpc = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
  rpc.onError(() => undefined);
  rpc.listen();
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await Promise.race<BrokerEvictResult | 'closed' | 'timeout'>([
      rpc.sendRequest(BrokerEvictRequest.type, { reason }),
      new Promise((r) => socket.once('close', () => r('closed'))),
      new Promise((r) => (timer = setTimeout(() => r('timeout'), ASK_TIMEOUT_MS))),
    ]);
    if (answer === 'timeout') return `it did not answer within ${ASK_TIMEOUT_MS / 1000} s`;
    if (answer === 'closed') return (await exitsWithin(d.brokerPid, 10_000)) ? true : 'it closed the connection without answering';
    return answer.evicted ? true : `it refused: ${answer.refused ?? 'no reason given'}`;
  } catch (err) {
    // An older broker without $/agentLsp/evict: its server answers MethodNotFound.
    return `it refused: ${(err as Error).message}`;
  } finally {
    clearTimeout(timer);
    rpc.dispose();
    socket.destroy();
  }
}

function connectSocket(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('timed out'));
    }, 2_000);
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.on('error', () => undefined);
      resolve(socket);
    });
  });
}

async function exitsWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (pidAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}
