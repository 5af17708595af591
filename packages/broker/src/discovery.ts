import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { AGENT_LSP_PROTOCOL_VERSION, startupMark, UserError } from '@agent-lsp/protocol';
import { attachReadinessStrategy, connectSocketTransport, LspConnection, resolveScoped, type ResolvedServer, type ConnectOptions } from '@agent-lsp/lsp';
import { BrokerLeaseAccess, type BrokerLeaseOptions } from './brokerLease.js';
import { SOCKET_CHECK_MS } from './acceptLoop.js';
import { DEFAULT_IDLE_TIMEOUT_MS, lockTarget, socketAnswers } from './broker.js';
import { daemonFilePath, readDaemonFile, type DaemonInfo } from './daemonFile.js';
import { brokerKey, daemonDir, ensurePrivateDir, socketPathFor } from './paths.js';
import { isBrokerProcess, pidAlive } from './processInfo.js';
import { BROKER_PROBE_TIMEOUT_MS, probeSocket } from './socketProbe.js';
import { makeRoomForBroker } from './evict.js';
import { resolveBrokerMemoryBudget } from './memoryBudget.js';
import { spawnBroker } from './spawnBroker.js';
import { killWedgedBroker } from './stop.js';

export interface BrokerConnectOptions extends ConnectOptions {
  idleTimeoutMs?: number;
  /** How long to wait for a freshly spawned broker to answer. */
  spawnTimeoutMs?: number;
  /** The custom servers file, passed on to a broker this spawns. */
  configPath?: string;
  /** Lease timing of exclusive sections (tests shorten it). */
  lease?: BrokerLeaseOptions;
  /**
   * The memory budget of all brokers of this home, in bytes (Infinity: none). Before spawning, the
   * least recently used idle brokers are evicted while usage is at or over it. Default: from
   * AGENT_LSP_MAX_BROKER_MEMORY, else half the RAM.
   */
  maxBrokerMemory?: number;
}

const LOCK_STALE_MS = 10_000;
/** How long a live broker whose socket refuses gets to bind it again (it checks every SOCKET_CHECK_MS). */
const REBIND_WAIT_MS = 4 * SOCKET_CHECK_MS;

/**
 * Daemon mode: finds the warm broker for (root, profile), or starts one, and returns a connection
 * to it. Many fronts may call this at once: the spawn lock lets one spawn while the others wait,
 * then find what it started.
 */
export async function connectToBroker(options: BrokerConnectOptions): Promise<LspConnection> {
  const { server, rootDir } = options;
  const resolved = resolveScoped(server, rootDir, options.scope);
  if (!resolved) {
    throw new UserError('server_not_found', `${server.displayName} was not found. ${server.installHint} Run \`agent-lsp doctor\` to check every server.`);
  }
  startupMark('broker server resolved');
  const key = brokerKey(rootDir, resolved.profileFingerprint);
  const dir = daemonDir(key);
  ensurePrivateDir(dir);
  const logger = options.logger.child(`broker ${key}`);

  const attached = (await attachReady(dir, key, resolved, options)) ?? (await attach(dir, key, resolved, options));
  if (attached instanceof LspConnection) return attached;
  if (attached.kind === 'foreign') throw foreignSocket(server.displayName, attached);

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
    let again = await attach(dir, key, resolved, options);
    if (again instanceof LspConnection) return again;
    if (again.kind === 'unreachable') {
      // A live broker whose socket file went away binds it again within a few seconds.
      logger.warn(`${again.why}; waiting for it to bind its socket again`);
      const deadline = Date.now() + REBIND_WAIT_MS;
      while (again.kind === 'unreachable' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        again = await attach(dir, key, resolved, options);
        if (again instanceof LspConnection) return again;
      }
      // Alive, ours, and still unreachable: as good as wedged.
      if (again.kind === 'unreachable') again = { ...again, kind: 'wedged' };
    }
    if (again.kind === 'foreign') throw foreignSocket(server.displayName, again);
    if (again.kind === 'wedged' && again.info) {
      logger.warn(`the broker is wedged (${again.why}); ending it (pid ${again.info.broker.pid}) and starting a new one`);
      if (!(await killWedgedBroker(again.info, key))) {
        throw new UserError('server_failed', `The broker for ${server.displayName} (pid ${again.info.broker.pid}) is wedged (${again.why}) and could not be ended; stop it with \`agent-lsp daemon-stop --root ${rootDir} --force\`.`);
      }
    }
    await makeRoomForBroker({ budgetBytes: options.maxBrokerMemory ?? budgetFromEnvironment(logger), spawningKey: key, logger });
    await cleanStale(dir, key);
    const pid = spawnBroker({ dir, key, root: rootDir, serverId: server.id, idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, ...(options.configPath ? { configPath: options.configPath } : {}), ...(options.scope?.length ? { scope: options.scope } : {}) });
    logger.info(`spawned broker ${pid} for ${rootDir}`);
    const timeoutMs = options.spawnTimeoutMs ?? 60_000;
    const deadline = Date.now() + timeoutMs;
    let lastFailure = 'it wrote no daemon.json yet';
    while (Date.now() < deadline) {
      const attempt = await attach(dir, key, resolved, options);
      if (attempt instanceof LspConnection) return attempt;
      if (attempt.kind === 'foreign') throw foreignSocket(server.displayName, attempt);
      lastFailure = attempt.why;
      if (!pidAlive(pid) && readDaemonFile(dir) === undefined) throw exitedAtStart(server.displayName, dir);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new UserError('server_failed', `The broker for ${server.displayName} did not come up within ${timeoutMs / 1000} s (last attempt: ${lastFailure}); see ${dir}/broker.log.`);
  } finally {
    await release().catch(() => undefined);
  }
}

/** For callers that did not resolve a budget (the CLI always does, and refuses invalid values at start). */
function budgetFromEnvironment(logger: BrokerConnectOptions['logger']): number {
  try {
    return resolveBrokerMemoryBudget().bytes;
  } catch (err) {
    logger.warn(`${(err as Error).message} Using the default budget.`);
    return resolveBrokerMemoryBudget({ env: {} }).bytes;
  }
}

/**
 * Why attaching to a broker did not work (this time):
 * - `dead`: no live broker (none yet, or one that exited): spawn one;
 * - `unreachable`: a live broker of ours whose socket refuses (its file was removed: it binds again);
 * - `wedged`: a live broker of ours that accepts but does not answer within the probe's time;
 * - `foreign`: the socket path is answered by a process that is not our broker;
 * - `mismatch`: a broker answered, but for another key or protocol, or initialize failed.
 */
interface AttachFailure {
  kind: 'dead' | 'unreachable' | 'wedged' | 'foreign' | 'mismatch';
  why: string;
  socket?: string;
  /** The daemon.json naming the live broker (unreachable, wedged). */
  info?: DaemonInfo;
}

/** Connects to the broker of this daemon dir, if one is alive, ours and speaks our protocol; else says why not. */
async function attach(dir: string, key: string, resolved: ResolvedServer, options: BrokerConnectOptions): Promise<LspConnection | AttachFailure> {
  const found = readDaemonFile(dir);
  const info = found?.key === key ? found : undefined;
  const live = info !== undefined && (await isBrokerProcess(info.broker.pid, key));
  const socket = info?.socket ?? socketPathFor(dir, key);
  const verdict = await probeSocket(socket);
  if (verdict === 'hung-up') {
    // A broker that is stopping closes new connections: once it is gone, the next one starts.
    if (live) return { kind: 'unreachable', why: `broker pid ${info.broker.pid} closed the connection without answering (stopping?)`, socket, info };
    return { kind: 'dead', why: `the socket ${socket} closed the connection without answering` };
  }
  if (verdict === 'refused') {
    if (live) return { kind: 'unreachable', why: `broker pid ${info.broker.pid} is alive but its socket ${socket} refuses connections`, socket, info };
    if (!found) return { kind: 'dead', why: 'no daemon.json' };
    if (!info) return { kind: 'dead', why: `daemon.json names key ${found.key}, not ${key}` };
    return { kind: 'dead', why: `pid ${info.broker.pid} in daemon.json is not a live broker for ${key}` };
  }
  if (verdict === 'silent' && live) {
    return { kind: 'wedged', why: `broker pid ${info.broker.pid} accepts connections on ${socket} but did not answer within ${BROKER_PROBE_TIMEOUT_MS / 1000} s`, socket, info };
  }
  if (verdict !== 'broker') {
    const how = verdict === 'silent' ? `accepts connections but says nothing within ${BROKER_PROBE_TIMEOUT_MS / 1000} s` : 'answers, but not as an agent-lsp broker';
    return { kind: 'foreign', why: `a process that is not ${live ? `broker pid ${info.broker.pid}` : 'a live broker'} ${how}`, socket };
  }
  return initializeThrough(socket, key, resolved, options);
}

/** How long a broker that daemon.json says is ready may take to answer initialize before attachReady gives up. */
const READY_INITIALIZE_MS = 2_000;

/**
 * A broker that daemon.json names as ready, alive and ours (its command line carries the key) is
 * attached to without the probe: one connection and one round trip fewer for every fresh front on a
 * warm broker. Anything else, and any failure here (a broker that does not answer at once, a
 * mismatch), is left to attach(), whose probe tells dead, wedged and foreign sockets apart.
 */
async function attachReady(dir: string, key: string, resolved: ResolvedServer, options: BrokerConnectOptions): Promise<LspConnection | undefined> {
  const info = readDaemonFile(dir);
  if (info?.key !== key || info.state !== 'ready' || !(await isBrokerProcess(info.broker.pid, key))) return undefined;
  const attached = await initializeThrough(info.socket ?? socketPathFor(dir, key), key, resolved, options, READY_INITIALIZE_MS);
  return attached instanceof LspConnection ? attached : undefined;
}

/** Connects to a broker's socket and initializes through it; the connection, or why not. */
async function initializeThrough(socket: string, key: string, resolved: ResolvedServer, options: BrokerConnectOptions, initializeTimeoutMs?: number): Promise<LspConnection | AttachFailure> {
  let transport;
  try {
    transport = await connectSocketTransport({ path: socket }, 5000);
    startupMark('broker socket connected');
  } catch (err) {
    return { kind: 'dead', why: `its socket ${socket} refused the connection (${(err as Error).message})` };
  }
  let conn: LspConnection;
  try {
    const exclusiveAccess = new BrokerLeaseAccess(options.section, options.lease);
    conn = await LspConnection.start({
      ...options,
      transport,
      resolved,
      logger: options.logger.child(options.server.id),
      exclusiveAccess,
      inlineReads: true,
      attachReadiness: attachReadinessStrategy,
      ...(initializeTimeoutMs !== undefined ? { initializeTimeoutMs } : {}),
    });
  } catch (err) {
    return { kind: 'mismatch', why: `initialize through its socket failed (${(err as Error).message})` };
  }
  const broker = conn.broker;
  if (broker?.key !== key || broker.protocol !== AGENT_LSP_PROTOCOL_VERSION) {
    await conn.shutdown();
    const got = broker ? `key ${broker.key}, protocol ${broker.protocol}` : 'no agentLsp capability (not a broker)';
    return { kind: 'mismatch', why: `the peer on its socket answered ${got}; expected key ${key}, protocol ${AGENT_LSP_PROTOCOL_VERSION}` };
  }
  return conn;
}

/** Our socket path is answered by a process that is not our broker: not ours to end or remove. */
function foreignSocket(serverName: string, failure: AttachFailure): UserError {
  return new UserError(
    'server_failed',
    `The broker for ${serverName} cannot start: its socket path ${failure.socket ?? '?'} is held by ${failure.why}. Stop that process or remove the socket file, then try again.`,
  );
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
 * after attach() found no live broker; a daemon.json that names a live broker is never removed
 * (its broker would be unreachable for every later front).
 */
async function cleanStale(dir: string, key: string): Promise<void> {
  const info = readDaemonFile(dir);
  if (info?.key === key && (await isBrokerProcess(info.broker.pid, key))) return;
  if (info?.socket && !(await socketAnswers(info.socket))) rmSync(info.socket, { force: true });
  rmSync(`${lockTarget(dir, 'lifetime')}.lock`, { recursive: true, force: true });
  rmSync(daemonFilePath(dir), { force: true });
}
