import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DaemonInfo } from '@agent-lsp/broker';
import type { DaemonsReportOut } from '@agent-lsp/tools/daemonReport';
import { ok, startAgentLsp, type AgentLspClient, type TestFrontHooks } from './mcpClient.js';
import { BIN, FIXTURES } from './paths.js';
import { descendants, isAlive, waitUntil } from './processes.js';

/**
 * Brokers for tests. Every test gets its own AGENT_LSP_HOME, so "the brokers of this test" are the
 * `agent-lsp daemon-broker` processes whose environment names that home; nothing here ever looks
 * at, or ends, a process of another test or of the user.
 */

/** `dir` made at least `minBytes` long with nested directories (long-path tests). */
function padded(dir: string, minBytes: number): string {
  let out = dir;
  for (let i = 0; Buffer.byteLength(out) < minBytes; i++) out = join(out, `a-rather-long-directory-name-${i}`);
  mkdirSync(out, { recursive: true });
  return out;
}

/** A new workspace root holding copies of test fixtures (`python-basic`, `ts-basic`): a root no broker knows. */
export function fixtureRoot(...fixtures: string[]): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-broker-root-')));
  for (const f of fixtures) cpSync(join(FIXTURES, f), join(root, f), { recursive: true });
  return root;
}

/** A front in daemon mode (the later `--daemon` wins over the helper's `--daemon never`). */
/** What else a test gives a front: more environment (also the brokers' it spawns), test hooks. */
export interface FrontOptions {
  env?: Record<string, string>;
  hooks?: TestFrontHooks;
}

export function startFront(home: string, args: string[] = [], options: FrontOptions = {}): Promise<AgentLspClient> {
  return startAgentLsp({ args: ['--daemon', 'auto', ...args], env: { ...options.env, AGENT_LSP_HOME: home }, ...(options.hooks ? { hooks: options.hooks } : {}) });
}

/** Closes a front and waits for its own process to exit (its brokers live on, detached). */
export async function closeFront(front: AgentLspClient): Promise<void> {
  await front.close();
  await waitUntil(() => !isAlive(front.pid), 15_000, `front pid ${front.pid} to exit`);
}

/** The known reference counts of the two basic fixtures, asked through a front. */
export const PYTHON_DISTANCE = { file_path: 'python-basic/app/geometry.py', position_pattern: 'def @@distance(' };
export const TS_TOTAL_AREA = { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'export function @@totalArea' };
export const EXPECTED_REFERENCES = 6;

export async function referenceCount(front: AgentLspClient, where: { file_path: string; position_pattern: string }): Promise<number> {
  const data = ok(await front.call('find_references', where));
  if (data['complete'] !== true) throw new Error(`find_references was not complete: ${JSON.stringify(data)}`);
  return data['total'] as number;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `agent-lsp <args>` with this home. */
export function agentLspCli(home: string, args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, AGENT_LSP_HOME: home }, timeout: 60_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** `daemon-status --json`: the same snake_case keys as get_daemon_status. */
export async function daemonStatus(home: string): Promise<DaemonsReportOut> {
  const r = await agentLspCli(home, ['daemon-status', '--json']);
  if (r.code !== 0) throw new Error(`daemon-status failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as DaemonsReportOut;
}

export function daemonsDir(home: string): string {
  return join(home, 'daemons');
}

/** The daemon dirs under a home, by key. */
export function daemonDirs(home: string): string[] {
  const dir = daemonsDir(home);
  return existsSync(dir) ? readdirSync(dir).map((k) => join(dir, k)) : [];
}

export function readDaemonJson(dir: string): DaemonInfo | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'daemon.json'), 'utf8')) as DaemonInfo;
  } catch {
    return undefined;
  }
}

/** Every daemon.json under a home, by language. */
export function daemonsByLanguage(home: string): Map<string, DaemonInfo & { dir: string }> {
  const out = new Map<string, DaemonInfo & { dir: string }>();
  for (const dir of daemonDirs(home)) {
    const info = readDaemonJson(dir);
    if (!info) continue;
    if (out.has(info.language)) throw new Error(`two daemon.json files for ${info.language} under ${home}`);
    out.set(info.language, { ...info, dir });
  }
  return out;
}

/** Waits until the broker for `language` has written a daemon.json that is ready. */
export async function readyDaemon(home: string, language: string): Promise<DaemonInfo & { dir: string }> {
  let found: (DaemonInfo & { dir: string }) | undefined;
  await waitUntil(
    () => {
      found = daemonsByLanguage(home).get(language);
      return found?.ready === true && found.server.pid !== undefined;
    },
    60_000,
    `a ready ${language} broker in ${home}`,
  );
  return found as DaemonInfo & { dir: string };
}

function procText(pid: number, file: string): string {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** Every live process whose environment names this AGENT_LSP_HOME: fronts, brokers, servers, tsserver. */
export function homeProcesses(home: string): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (!procText(pid, 'environ').split('\0').includes(`AGENT_LSP_HOME=${home}`)) continue;
    if (isAlive(pid)) out.push({ pid, cmd: procText(pid, 'cmdline').split('\0').join(' ').trim() });
  }
  return out;
}

/** Pids of the live `agent-lsp daemon-broker` processes of this home. */
export function brokerPids(home: string): number[] {
  return homeProcesses(home)
    .filter((p) => / daemon-broker /.test(p.cmd))
    .map((p) => p.pid)
    .sort((a, b) => a - b);
}

/** Pids of this home's processes whose command line matches (e.g. /pyright/): servers, whoever started them. */
export function serverPids(home: string, command: RegExp): number[] {
  return homeProcesses(home)
    .filter((p) => command.test(p.cmd) && !/ daemon-broker /.test(p.cmd))
    .map((p) => p.pid)
    .sort((a, b) => a - b);
}

export const PYRIGHT = /pyright\/langserver/;
export const TYPESCRIPT_LANGUAGE_SERVER = /typescript-language-server\/lib\/cli/;

/** The pids broker.log says were started for a daemon dir ("starting for … pid N"): a broker that lost a race shows here. */
export function brokerStarts(dir: string): number[] {
  let log = '';
  try {
    log = readFileSync(join(dir, 'broker.log'), 'utf8');
  } catch {
    return [];
  }
  return [...log.matchAll(/ starting for .* pid (\d+)$/gm)].map((m) => Number(m[1]));
}

/** Pids of a home's brokers and everything they run, plus the servers daemon.json names. */
export function brokerTree(home: string): number[] {
  const pids = new Set<number>();
  for (const b of brokerPids(home)) for (const p of [b, ...descendants(b)]) pids.add(p);
  for (const dir of daemonDirs(home)) {
    const info = readDaemonJson(dir);
    if (info?.server.pid !== undefined && isAlive(info.server.pid)) {
      for (const p of [info.server.pid, ...descendants(info.server.pid)]) pids.add(p);
    }
  }
  return [...pids];
}

/** SIGKILL by pid; a process that has exited meanwhile is fine. */
export function killPid(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // exited meanwhile
  }
}

/**
 * Ends every broker of a home the way a user would (`daemon-stop --all --force`), then checks that
 * no process of that home is left: not the brokers, not their servers, not tsserver. Whatever
 * survived is killed by pid and reported as an error, so a leak fails the test instead of lingering.
 */
export async function stopAllBrokers(home: string): Promise<void> {
  const tracked = new Set(brokerTree(home));
  // Fallback sockets live outside the home (see the long-path test): removing the home would not remove them.
  const sockets = daemonDirs(home).flatMap((dir) => readDaemonJson(dir)?.socket ?? []);
  const stop = await agentLspCli(home, ['daemon-stop', '--all', '--force']);
  for (const p of brokerTree(home)) tracked.add(p);
  const leftovers = () => [...new Set([...tracked, ...homeProcesses(home).map((p) => p.pid)])].filter(isAlive);
  try {
    await waitUntil(() => leftovers().length === 0, 20_000, 'brokers and servers to exit');
  } catch {
    const left = leftovers();
    const described = left.map((pid) => `${pid} ${procText(pid, 'cmdline').split('\0').join(' ').slice(0, 160)}`);
    for (const pid of left) killPid(pid);
    throw new Error(`daemon-stop --all --force (exit ${stop.code}: ${stop.stdout}${stop.stderr}) left processes running: ${described.join('; ')}`);
  }
  const leftSockets = sockets.filter((s) => existsSync(s));
  for (const s of leftSockets) rmSync(s, { force: true });
  if (leftSockets.length) throw new Error(`daemon-stop --all --force left sockets behind: ${leftSockets.join(', ')}`);
}

/**
 * What a broker test starts, and its afterEach: close the fronts, stop the brokers (checking that
 * nothing is left), remove the temp dirs. A failed step does not skip the others.
 */
export class BrokerTestScope {
  readonly fronts: AgentLspClient[] = [];
  readonly homes: string[] = [];
  readonly dirs: string[] = [];

  /** A fresh, private AGENT_LSP_HOME, at least `minBytes` long. */
  home(minBytes = 0): string {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-broker-home-')));
    this.dirs.push(dir);
    const home = padded(dir, minBytes);
    this.homes.push(home);
    return home;
  }

  root(...fixtures: string[]): string {
    const r = fixtureRoot(...fixtures);
    this.dirs.push(r);
    return r;
  }

  async front(home: string, args: string[] = [], options: FrontOptions = {}): Promise<AgentLspClient> {
    const f = await startFront(home, args, options);
    this.fronts.push(f);
    return f;
  }

  async cleanup(): Promise<void> {
    const errors: unknown[] = [];
    const fronts = this.fronts.splice(0);
    await Promise.all(
      fronts.map(async (f) => {
        try {
          await closeFront(f);
        } catch (err) {
          killPid(f.pid);
          errors.push(err);
        }
      }),
    );
    for (const home of this.homes.splice(0)) {
      try {
        await stopAllBrokers(home);
      } catch (err) {
        errors.push(err);
      }
    }
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    if (errors.length) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  }
}

/** Pids in ascending order, as brokerPids and serverPids return them. */
export function pidsInOrder(...pids: (number | undefined)[]): number[] {
  return pids.filter((p): p is number => p !== undefined).sort((a, b) => a - b);
}
