// Issue 29 item 3 / issue 32 item 3's figure: an interactive client's hovers (an editor's, a host's)
// while an agent's workspace-scope preview_edit runs on the same broker, Django under pyright. The
// evaluation in one exclusive section (as before; the test front's hook) beside the evaluation in
// steps (the default), each on a fresh front (no baseline cached) and a warm server.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { connectToBroker } from '@agent-lsp/broker';
import { createLogger, ServerRegistry } from '@agent-lsp/lsp';
import { BrokerStatsRequest, pathToUri } from '@agent-lsp/protocol';
import { ms, summarize } from './stats.mjs';
import { BIN } from './programFront.mjs';

const TEST_FRONT = fileURLToPath(new URL('../helpers/testFront.mjs', import.meta.url));
const DJANGO = '/usr/lib/python3/dist-packages/django';
/** A breaking edit of a function ~190 Django modules call (test/field/previewChecks.ts). */
const FILE = 'django/utils/encoding.py';
const EDIT = { old_text: "def force_str(s, encoding='utf-8',", new_text: 'def force_str(s, encoding,' };
/** The interactive client hovers a call of it, in a module that depends on the edit. */
const HOVER = { file: 'django/contrib/gis/gdal/driver.py', needle: 'force_str(rcapi' };
const logger = createLogger({ level: 'error' });

/**
 * A front in daemon mode on `home` (`daemon`: auto, or always for a server auto runs without a
 * broker); `hooks` starts the test front (the one-section reference).
 */
export async function front(home, hooks, daemon = 'auto') {
  const args = hooks ? [TEST_FRONT, JSON.stringify(hooks), 'serve', '--daemon', daemon] : [BIN, 'serve', '--daemon', daemon];
  const transport = new StdioClientTransport({ command: process.execPath, args, env: { ...process.env, AGENT_LSP_HOME: home }, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return client;
}

export async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 900_000 });
  if (r.isError) throw new Error(`${name}: ${r.content[0].text}`);
  return r;
}

/** Opens `path` in the interactive client `light`; the hover's place: 2 characters into `needle`. */
export function openHoverTarget(light, path, needle, language) {
  const text = readFileSync(path, 'utf8');
  const before = text.slice(0, text.indexOf(needle) + 2).split('\n');
  const target = { uri: pathToUri(path), position: { line: before.length - 1, character: (before.at(-1) ?? '').length } };
  light.documents.sync(target.uri, language, text);
  return target;
}

/** Ten hovers of `target` with no preview running: their times (ms). */
export async function idleHovers(light, target) {
  const idle = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    await light.request('textDocument/hover', { textDocument: { uri: target.uri }, position: target.position }, { timeoutMs: 900_000 });
    idle.push(performance.now() - t);
  }
  return idle;
}

/**
 * One preview (`preview`: language, file_path, old_text, new_text; `daemon` as for `front`) on a
 * fresh front while the interactive client hovers, one hover after another.
 */
export async function measured(home, root, light, target, hooks, preview = { language: 'python', file_path: FILE, ...EDIT }, daemon = 'auto') {
  const agent = await front(home, hooks, daemon);
  try {
    await call(agent, 'start_lsp', { root_dir: root, language_id: preview.language });
    const hover = () => light.request('textDocument/hover', { textDocument: { uri: target.uri }, position: target.position }, { timeoutMs: 900_000 });
    const leasesBefore = (await light.request(BrokerStatsRequest.type, undefined)).leasesGranted;
    let done = false;
    const started = performance.now();
    const previewed = call(agent, 'preview_edit', { ...preview, scope: 'workspace' }).finally(() => (done = true));
    const samples = [];
    while (!done) {
      const t = performance.now();
      await hover();
      samples.push(performance.now() - t);
    }
    const answer = (await previewed).structuredContent ?? {};
    const seconds = (performance.now() - started) / 1000;
    const leases = (await light.request(BrokerStatsRequest.type, undefined)).leasesGranted - leasesBefore;
    return { samples, seconds, leases, max: Math.max(...samples), examined: answer.dependents?.examined, introduced: answer.errors_introduced?.length, answer };
  } finally {
    await agent.close();
  }
}

/**
 * Warms the broker of `root` (`warmUp(home)`), connects an interactive client to it (AGENT_LSP_HOME
 * set meanwhile: connectToBroker finds the broker through it) and returns `measure(light, home)`;
 * then stops every daemon of the bench's home and removes `root`, whatever happened.
 */
export async function onWarmBroker(root, language, warmUp, measure) {
  const home = join(root, '.home');
  const previousHome = process.env.AGENT_LSP_HOME;
  try {
    await warmUp(home);
    process.env.AGENT_LSP_HOME = home;
    const light = await connectToBroker({ server: new ServerRegistry().forLanguage(language), rootDir: root, workspaceFolders: [root], logger });
    try {
      return await measure(light, home);
    } finally {
      await light.shutdown().catch(() => undefined);
    }
  } finally {
    if (previousHome === undefined) delete process.env.AGENT_LSP_HOME;
    else process.env.AGENT_LSP_HOME = previousHome;
    execFileSync(process.execPath, [BIN, 'daemon-stop', '--all'], { env: { ...process.env, AGENT_LSP_HOME: home }, stdio: 'ignore' });
    rmSync(root, { recursive: true, force: true });
  }
}

/** One measured preview's log line (logged) and table row; `answer`: what the answer column says. */
export function hoverRow(log, label, r, idle, answer) {
  const s = summarize(r.samples);
  log(`  ${label}: ${r.seconds.toFixed(1)} s, ${r.leases} leases, ${s.n} hovers, p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, max ${ms(r.max)}`);
  return `| ${label} | ${r.seconds.toFixed(1)} s | ${r.leases} | ${answer} | ${s.n} | ${ms(summarize(idle).p50)} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(r.max)} |`;
}

export async function previewSharing(log) {
  if (!existsSync(DJANGO)) return `## Sharing a broker with an agent's workspace preview\n\nNot run: ${DJANGO} is missing (Debian's python3-django).\n`;
  const root = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-share-'));
  cpSync(DJANGO, join(root, 'django'), { recursive: true, filter: (src) => !src.includes('__pycache__') });
  const rows = await onWarmBroker(
    root,
    'python',
    async (home) => {
      // Warms the server (its first workspace preview indexes what the edit touches); not measured.
      const warm = await front(home);
      await call(warm, 'start_lsp', { root_dir: root, language_id: 'python' });
      await call(warm, 'preview_edit', { language: 'python', file_path: FILE, ...EDIT, scope: 'workspace' });
      await warm.close();
    },
    async (light, home) => {
      const target = openHoverTarget(light, join(root, HOVER.file), HOVER.needle, 'python');
      const idle = await idleHovers(light, target);
      const rows = [];
      for (const [label, hooks] of [
        ['in one exclusive section (before)', { evaluationStepMs: null }],
        ['in steps (default: at most 2 s each, then the settling)', undefined],
      ]) {
        const r = await measured(home, root, light, target, hooks);
        rows.push(hoverRow(log, label, r, idle, `${r.examined ?? '?'} / ${r.introduced ?? '?'}`));
      }
      return rows;
    },
  );
  return `## Sharing a broker with an agent's workspace preview

Run on ${new Date().toISOString().slice(0, 10)}. Debian's Django 3.2 (${DJANGO}, copied), pyright, one broker. An agent's front
calls \`preview_edit\` with \`scope: "workspace"\` on ${FILE} (${EDIT.old_text} → ${EDIT.new_text}: every caller of
force_str that passes one argument breaks; default timeout_ms), on a fresh front (no baseline cached) and a warm
server; meanwhile an interactive client (an editor, a host's LSP tool) on the same broker hovers \`force_str\` in
${HOVER.file}, one hover after another until the preview answers. **Idle**: its hover with no preview (median of 10).
Through the broker each exclusive section is a lease, and the other clients' requests wait while one is held
(docs/broker.md, "Taking turns"). In one section, every hover sent during the preview waited for all of it;
in steps, a hover waits for the step in progress at most, and is answered on the disk's text between two: each step
lasts at most 2 s, or twice what a request or the last settling cut short needed (that settling then runs again from
the start; never more than timeout_ms), plus the server's work on a request cut short, which it may finish first. **Dependents examined / errors introduced**: what
the answer counted (files whose diagnostics settled within timeout_ms, with and without the edit); it varies with
the machine's load from run to run, in either mode (test/simulation/steppedEvaluation.test.ts checks that both
modes conclude the same where everything settles).

| evaluation | preview_edit time | leases | dependents examined / errors introduced | hovers during it | hover p50, idle | hover p50 | hover p95 | hover max |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Target (issue 29 item 3, issue 32 item 3): an agent's exclusive sections hold another client a bounded time.
`;
}
