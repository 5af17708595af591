// Issue 12 item 14's figures: a light client's hovers while another client floods the same broker
// with references, with fair queuing (the broker's default bound) and without (--max-in-flight 0),
// side by side in one run.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { brokerKey, connectToBroker, daemonDir, readDaemonFile } from '@agent-lsp/broker';
import { BrokerAcquireRequest, BrokerReleaseRequest } from '@agent-lsp/protocol';
import { createLogger, ServerRegistry } from '@agent-lsp/lsp';
import { openQueryTarget } from './corpora.mjs';
import { ms, summarize } from './stats.mjs';

const BIN = fileURLToPath(new URL('../../bin/agent-lsp', import.meta.url));
const logger = createLogger({ level: 'error' });
/** References the flooding client keeps outstanding at all times. */
const BACKLOG = 16;
/** Hovers the light client sends, one after another (as an agent would). */
const HOVERS = 20;
/** The broker's default bound (DEFAULT_MAX_IN_FLIGHT). */
const DEFAULT_BOUND = 4;
/** Clients taking exclusive sections back to back, and how long each holds one (issue 29 item 3). */
const LEASE_HOLDERS = 4;
const LEASE_HOLD_MS = 1000;

/** A broker of our own for the corpus, with the given bound, in a private home; resolves once ready. */
async function startBroker(corpus, maxInFlight) {
  const home = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-fair-'));
  const env = { ...process.env, AGENT_LSP_HOME: home };
  const server = new ServerRegistry().forLanguage(corpus.language);
  const key = brokerKey(corpus.root, server.resolve(corpus.root).profileFingerprint);
  const args = [BIN, 'daemon-broker', '--root', corpus.root, '--language', server.id, '--key', key, '--max-in-flight', String(maxInFlight)];
  const child = spawn(process.execPath, args, { env, stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  const deadline = Date.now() + 300_000;
  while (readDaemonFile(daemonDir(key, env))?.ready !== true) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the broker (--max-in-flight ${maxInFlight}) did not become ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    home,
    server,
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(home, { recursive: true, force: true });
    },
  };
}

async function oneMode(corpus, maxInFlight, log) {
  const broker = await startBroker(corpus, maxInFlight);
  const previousHome = process.env.AGENT_LSP_HOME;
  process.env.AGENT_LSP_HOME = broker.home; // connectToBroker finds the broker through it
  const connect = () => connectToBroker({ server: broker.server, rootDir: corpus.root, workspaceFolders: [corpus.root], logger });
  const [flooder, light] = [await connect(), await connect()];
  try {
    const f = await openQueryTarget(flooder, corpus);
    const l = await openQueryTarget(light, corpus);
    const references = () => flooder.request('textDocument/references', { textDocument: { uri: f.uri }, position: f.position, context: { includeDeclaration: true } }, { timeoutMs: 900_000 });
    const hover = () => light.request('textDocument/hover', { textDocument: { uri: l.uri }, position: l.position }, { timeoutMs: 900_000 });
    await references();
    await hover();
    const idle = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await hover();
      idle.push(performance.now() - t);
    }

    let flooding = true;
    let referencesDone = 0;
    const floodStarted = performance.now();
    const loop = async () => {
      while (flooding) {
        await references();
        referencesDone++;
      }
    };
    const workers = Array.from({ length: BACKLOG }, loop);
    const samples = [];
    for (let i = 0; i < HOVERS; i++) {
      const t = performance.now();
      await hover();
      samples.push(performance.now() - t);
    }
    flooding = false;
    const floodSeconds = (performance.now() - floodStarted) / 1000;
    await Promise.all(workers);
    const loaded = summarize(samples);
    log(`  --max-in-flight ${maxInFlight}: hover p50 ${ms(loaded.p50)}, p95 ${ms(loaded.p95)}; ${referencesDone} references in ${floodSeconds.toFixed(1)} s`);
    return { maxInFlight, idle: summarize(idle), loaded, referencesPerSecond: referencesDone / floodSeconds };
  } finally {
    await Promise.all([flooder.shutdown(), light.shutdown()]).catch(() => undefined);
    if (previousHome === undefined) delete process.env.AGENT_LSP_HOME;
    else process.env.AGENT_LSP_HOME = previousHome;
    await broker.stop();
  }
}

/**
 * The light client's hovers while LEASE_HOLDERS other clients take exclusive sections back to back
 * (acquire, hold LEASE_HOLD_MS, release, again), as agents' speculative evaluations do.
 */
async function leaseMode(corpus, log) {
  const broker = await startBroker(corpus, DEFAULT_BOUND);
  const previousHome = process.env.AGENT_LSP_HOME;
  process.env.AGENT_LSP_HOME = broker.home;
  const connect = () => connectToBroker({ server: broker.server, rootDir: corpus.root, workspaceFolders: [corpus.root], logger });
  const holders = [];
  for (let i = 0; i < LEASE_HOLDERS; i++) holders.push(await connect());
  const light = await connect();
  try {
    const l = await openQueryTarget(light, corpus);
    const hover = () => light.request('textDocument/hover', { textDocument: { uri: l.uri }, position: l.position }, { timeoutMs: 900_000 });
    await hover();
    const idle = [];
    for (let i = 0; i < 10; i++) {
      const t = performance.now();
      await hover();
      idle.push(performance.now() - t);
    }
    let leasing = true;
    let leases = 0;
    const started = performance.now();
    const holder = async (conn) => {
      while (leasing) {
        const { leaseId } = await conn.request(BrokerAcquireRequest.type, { leaseMs: 60_000 }, { timeoutMs: 900_000 });
        await new Promise((r) => setTimeout(r, LEASE_HOLD_MS));
        await conn.request(BrokerReleaseRequest.type, { leaseId });
        leases++;
      }
    };
    const workers = holders.map(holder);
    const samples = [];
    for (let i = 0; i < HOVERS; i++) {
      const t = performance.now();
      await hover();
      samples.push(performance.now() - t);
    }
    leasing = false;
    const seconds = (performance.now() - started) / 1000;
    await Promise.all(workers);
    const loaded = summarize(samples);
    log(`  back-to-back leases: hover p50 ${ms(loaded.p50)}, p95 ${ms(loaded.p95)}; ${leases} leases in ${seconds.toFixed(1)} s`);
    return { idle: summarize(idle), loaded, leasesPerSecond: leases / seconds };
  } finally {
    await Promise.all([...holders, light].map((c) => c.shutdown())).catch(() => undefined);
    if (previousHome === undefined) delete process.env.AGENT_LSP_HOME;
    else process.env.AGENT_LSP_HOME = previousHome;
    await broker.stop();
  }
}

/** The fairness section of docs/benchmarks.md, from one run of both modes on `corpus`. */
export async function fairness(corpus, log) {
  const rows = [];
  for (const maxInFlight of [0, DEFAULT_BOUND]) {
    const r = await oneMode(corpus, maxInFlight, log);
    const label = maxInFlight === 0 ? 'without fair queuing (`--max-in-flight 0`, unbounded)' : `fair queuing (default, at most ${maxInFlight} in flight)`;
    rows.push(`| ${label} | ${ms(r.idle.p50)} | ${ms(r.loaded.p50)} | ${ms(r.loaded.p95)} | ${r.referencesPerSecond.toFixed(1)}/s |`);
  }
  const leased = await leaseMode(corpus, log);
  rows.push(`| ${LEASE_HOLDERS} other clients taking ${LEASE_HOLD_MS / 1000} s leases back to back (no flood) | ${ms(leased.idle.p50)} | ${ms(leased.loaded.p50)} | ${ms(leased.loaded.p95)} | ${leased.leasesPerSecond.toFixed(2)} leases/s |`);
  return `## Fairness under load: a light client's hovers while another client floods references

Run on ${new Date().toISOString().slice(0, 10)}. ${corpus.name}, one broker per row (started for the row). One client keeps ${BACKLOG} \`textDocument/references\`
requests (\`${corpus.pattern}\` in ${corpus.file}) outstanding at all times; meanwhile a second client sends
${HOVERS} hovers one after another, as an agent would. **Idle**: the second client's hover with no flood (median of 10).
tsserver works through what it is sent in order, so without fair queuing every hover waits behind the whole backlog.
The last row has no flood: ${LEASE_HOLDERS} clients take exclusive sections back to back instead (acquire, hold ${LEASE_HOLD_MS / 1000} s,
release, again), as agents' speculative evaluations do; leases and the others' requests take turns, so a hover
waits for the lease in progress at most (issue 29 item 3; before, hovers waited until no lease was queued).

| broker | hover p50, idle | hover p50 under the flood | hover p95 under the flood | flood throughput |
| --- | --- | --- | --- | --- |
${rows.join('\n')}

Target (issue 12, item 14; issue 29, item 3): a flood from one agent, or agents' back-to-back exclusive sections, do not starve the others.
`;
}
