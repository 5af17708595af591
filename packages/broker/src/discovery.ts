import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { AGENT_LSP_PROTOCOL_VERSION, UserError } from '@agent-lsp/protocol';
import { connectSocketTransport, LspConnection, type ResolvedServer, type ConnectOptions } from '@agent-lsp/lsp';
import { BrokerLeaseAccess, type BrokerLeaseOptions } from './brokerLease.js';
import { DEFAULT_IDLE_TIMEOUT_MS, lockTarget, socketAnswers } from './broker.js';
import { daemonFilePath, readDaemonFile } from './daemonFile.js';
import { brokerKey, daemonDir, ensurePrivateDir } from './paths.js';
import { isBrokerProcess, pidAlive } from './processInfo.js';
import { spawnBroker } from './spawnBroker.js';

export interface BrokerConnectOptions extends ConnectOptions {
  idleTimeoutMs?: number;
  /** How long to wait for a freshly spawned broker to answer. */
  spawnTimeoutMs?: number;
  /** The custom servers file, passed on to a broker this spawns. */
  configPath?: string;
  /** Lease timing of exclusive sections (tests shorten it). */
  lease?: BrokerLeaseOptions;
}

const LOCK_STALE_MS = 10_000;

/**
 * Daemon mode: finds the warm broker for (root, profile), or starts one, and returns a connection
 * to it. Many fronts may call this at once: the spawn lock lets one spawn while the others wait,
 * then find what it started.
 */
export async function connectToBroker(options: BrokerConnectOptions): Promise<LspConnection> {
  const { server, rootDir } = options;
  const resolved = server.resolve(rootDir);
  if (!resolved) {
    throw new UserError('server_not_found', `${server.displayName} was not found. ${server.installHint} Run \`agent-lsp doctor\` to check every server.`);
  }
  const key = brokerKey(rootDir, resolved.profileFingerprint);
  const dir = daemonDir(key);
  ensurePrivateDir(dir);
  const logger = options.logger.child(`broker ${key}`);

  const attached = await attach(dir, key, resolved, options);
  if (attached instanceof LspConnection) return attached;

  let release: (() => Promise<void>) | undefined;
  try {
    release = await lockfile.lock(lockTarget(dir, 'spawn'), {
      realpath: false,
      stale: LOCK_STALE_MS,
      update: LOCK_STALE_MS / 2,
      retries: { retries: 1200, minTimeout: 50, maxTimeout: 100 },
      onCompromised: (err) => logger.warn(`spawn lock compromised: ${err.message}`),
    });
  } catch (err) {
    throw new UserError('server_failed', `Could not take the broker spawn lock in ${dir}: ${(err as Error).message}`);
  }
  try {
    // Someone may have started it while we waited for the lock.
    const again = await attach(dir, key, resolved, options);
    if (again instanceof LspConnection) return again;
    await cleanStale(dir, key);
    const pid = spawnBroker({ dir, key, root: rootDir, serverId: server.id, idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, ...(options.configPath ? { configPath: options.configPath } : {}) });
    logger.info(`spawned broker ${pid} for ${rootDir}`);
    const timeoutMs = options.spawnTimeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    let lastFailure = 'it wrote no daemon.json yet';
    while (Date.now() < deadline) {
      const attempt = await attach(dir, key, resolved, options);
      if (attempt instanceof LspConnection) return attempt;
      lastFailure = attempt.why;
      if (!pidAlive(pid) && readDaemonFile(dir) === undefined) throw exitedAtStart(server.displayName, dir);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new UserError('server_failed', `The broker for ${server.displayName} did not come up within ${timeoutMs / 1000} s (last attempt: ${lastFailure}); see ${dir}/broker.log.`);
  } finally {
    await release().catch(() => undefined);
  }
}

/** Why attaching to a broker did not work (this time). */
interface AttachFailure {
  why: string;
}

/** Connects to the broker daemon.json describes, if it is alive, ours and speaks our protocol; else says why not. */
async function attach(dir: string, key: string, resolved: ResolvedServer, options: BrokerConnectOptions): Promise<LspConnection | AttachFailure> {
  const info = readDaemonFile(dir);
  if (!info) return { why: 'no daemon.json' };
  if (info.key !== key) return { why: `daemon.json names key ${info.key}, not ${key}` };
  if (!(await isBrokerProcess(info.broker.pid, key))) return { why: `pid ${info.broker.pid} in daemon.json is not a live broker for ${key}` };
  let transport;
  try {
    transport = await connectSocketTransport({ path: info.socket }, 5000);
  } catch (err) {
    return { why: `its socket ${info.socket} refused the connection (${(err as Error).message})` };
  }
  let conn: LspConnection;
  try {
    const exclusiveAccess = new BrokerLeaseAccess(options.section, options.lease);
    conn = await LspConnection.start({ ...options, transport, resolved, logger: options.logger.child(options.server.id), exclusiveAccess });
  } catch (err) {
    return { why: `initialize through its socket failed (${(err as Error).message})` };
  }
  const broker = conn.broker;
  if (broker?.key !== key || broker.protocol !== AGENT_LSP_PROTOCOL_VERSION) {
    await conn.shutdown();
    const got = broker ? `key ${broker.key}, protocol ${broker.protocol}` : 'no agentLsp capability (not a broker)';
    return { why: `the peer on its socket answered ${got}; expected key ${key}, protocol ${AGENT_LSP_PROTOCOL_VERSION}` };
  }
  return conn;
}

/** The broker we spawned is gone without a daemon.json: its log says why (another broker, a server that would not start…). */
function exitedAtStart(serverName: string, dir: string): UserError {
  const log = join(dir, 'broker.log');
  let tail = '';
  try {
    tail = readFileSync(log, 'utf8').trimEnd().split('\n').slice(-8).join('\n');
  } catch {
    // No log: the process could not even write it.
  }
  const cause = /another broker holds|a live broker already listens/.test(tail)
    ? 'another live broker holds its daemon dir (lifetime lock or socket), yet did not answer'
    : 'it exited at start';
  return new UserError('server_failed', `The broker for ${serverName} did not come up: ${cause}. Last lines of ${log}:\n${tail || '(empty)'}`);
}

/**
 * Removes what a dead broker left: its daemon.json, a socket nobody answers on, and its lifetime
 * lock (else the next broker waits for the lock to turn stale). Called under the spawn lock, only
 * after attach() found no live broker.
 */
async function cleanStale(dir: string, key: string): Promise<void> {
  const info = readDaemonFile(dir);
  if (info?.socket && !(await socketAnswers(info.socket))) rmSync(info.socket, { force: true });
  if (info && !(await isBrokerProcess(info.broker.pid, key))) rmSync(`${lockTarget(dir, 'lifetime')}.lock`, { recursive: true, force: true });
  rmSync(daemonFilePath(dir), { force: true });
}
