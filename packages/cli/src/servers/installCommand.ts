import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serversHome, ServerRegistry } from '@agent-lsp/lsp';
import { UserError } from '@agent-lsp/protocol';
import { planInstall, type MachineProbe, type PlanStep } from './installPlan.js';
import { machineProbe } from './machineProbe.js';
import { cleanStaleStaging, InstallFailed, linkBinaries, runInstallCommand, stagedInstall } from './stagedInstall.js';
import { resolveTargets } from './serverTargets.js';

export interface ServersInstallOptions {
  jobs?: string;
}

const names = (step: PlanStep) => step.targets.map((t) => t.server.id).join(', ');
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * `agent-lsp servers install [LANG|LANG:SERVER|SERVER…]`: plans every name first (an unknown one
 * changes nothing), then installs what is missing — into the servers home several at a time,
 * apt and rustup one after the other — with a progress line per step on stderr and one result
 * line per server on stdout. Exit 0 when every server asked for is there, 1 otherwise, 2 on bad input.
 */
export async function runServersInstall(
  args: readonly string[],
  opts: ServersInstallOptions,
  out: (line: string) => void,
  err: (line: string) => void,
  probe: MachineProbe = machineProbe(),
): Promise<number> {
  const registry = new ServerRegistry();
  const jobs = opts.jobs === undefined ? 4 : Number(opts.jobs);
  if (!Number.isInteger(jobs) || jobs < 1) {
    err(`error: --jobs ${opts.jobs} is not a positive whole number`);
    return 2;
  }
  if (args.length === 0) {
    err('error: name the languages (or language:server) to install, e.g. `agent-lsp servers install go php python:basedpyright`; `agent-lsp servers list` shows them all');
    return 2;
  }
  let steps: PlanStep[];
  const home = serversHome();
  try {
    steps = planInstall(resolveTargets(args, registry), home, probe, existsSync);
  } catch (e) {
    if (e instanceof UserError) {
      err(`error: ${e.message}`);
      return 2;
    }
    throw e;
  }
  let failed = 0;
  const result = (step: PlanStep, text: string) => {
    for (const t of step.targets) out(`${t.server.id}: ${text}`);
  };
  for (const step of steps) {
    if (step.action === 'bundled') result(step, 'comes with agent-lsp (nothing to install)');
    else if (step.action === 'already') {
      if (step.relink) linkBinaries(step.relink, home);
      result(step, `already installed (${step.where})`);
    } else if (step.action === 'unavailable') {
      failed += step.targets.length;
      err(`servers: ✗ ${names(step)}: cannot install here: ${step.reason}. Run by hand: ${step.manual}`);
      result(step, `not installed: ${step.reason}`);
    }
  }
  const installs = steps.filter((s): s is Extract<PlanStep, { action: 'install' }> => s.action === 'install');
  if (installs.length > 0) {
    mkdirSync(home, { recursive: true });
    cleanStaleStaging(home);
  }
  const runOne = async (step: Extract<PlanStep, { action: 'install' }>) => {
    const started = Date.now();
    const what = step.route.packages.map((p) => `${p.name} ${p.version}`).join(', ');
    err(`servers: installing ${names(step)} (${step.route.kind}: ${what}) into ${step.unitDir}${step.replaces ? ` (replacing ${step.replaces.packages.map((p) => `${p.name} ${p.version}`).join(', ')})` : ''}`);
    try {
      await stagedInstall(step, home);
      err(`servers: ✓ ${names(step)} installed in ${seconds(started)}`);
      result(step, `installed (${step.route.kind}: ${what}) → ${step.route.binaries.map((b) => join(home, 'bin', b)).join(', ')}`);
    } catch (e) {
      failed += step.targets.length;
      const f = e instanceof InstallFailed ? e : new InstallFailed((e as Error).message, '', '');
      const tail = f.output.trim().split('\n').slice(-15).join('\n');
      err(`servers: ✗ ${names(step)}: install failed after ${seconds(started)}: ${f.message}; nothing of it was kept.${tail ? `\n${tail}` : ''}\nRun by hand: ${f.manual}`);
      result(step, `not installed: ${f.message}`);
    }
  };
  const queue = [...installs];
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let step = queue.shift(); step; step = queue.shift()) await runOne(step);
  }));
  failed += await runSystemSteps(steps, out, err, result);
  return failed > 0 ? 1 : 0;
}

/** apt (one apt-get for all, after an update) and rustup: system-wide, so said so, one at a time. */
async function runSystemSteps(steps: readonly PlanStep[], _out: (line: string) => void, err: (line: string) => void, result: (step: PlanStep, text: string) => void): Promise<number> {
  let failed = 0;
  const system = steps.filter((s): s is Extract<PlanStep, { action: 'system' }> => s.action === 'system');
  const apt = system.filter((s) => s.route.kind === 'apt');
  if (apt.length > 0) {
    const packages = apt.flatMap((s) => (s.route.kind === 'apt' ? s.route.packages.map((p) => p.name) : []));
    const started = Date.now();
    err(`servers: installing ${packages.join(' ')} with apt-get, system-wide (running as root)`);
    try {
      await runInstallCommand({ argv: ['apt-get', 'update', '-qq'] }, '/');
      await runInstallCommand({ argv: ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages], env: { DEBIAN_FRONTEND: 'noninteractive' } }, '/');
      err(`servers: ✓ ${packages.join(' ')} installed in ${seconds(started)}`);
      for (const s of apt) result(s, `installed (apt: ${s.route.kind === 'apt' ? s.route.packages.map((p) => p.name).join(' ') : ''}, system-wide)`);
    } catch (e) {
      failed += apt.reduce((n, s) => n + s.targets.length, 0);
      const tail = e instanceof InstallFailed ? e.output.trim().split('\n').slice(-15).join('\n') : '';
      err(`servers: ✗ apt-get install ${packages.join(' ')} failed: ${(e as Error).message}${tail ? `\n${tail}` : ''}\nRun by hand: apt-get install -y ${packages.join(' ')}`);
      for (const s of apt) result(s, `not installed: ${(e as Error).message}`);
    }
  }
  for (const step of system.filter((s) => s.route.kind === 'rustup')) {
    if (step.route.kind !== 'rustup') continue;
    const started = Date.now();
    err(`servers: adding the ${step.route.component} component to your rustup toolchain (rustup's, not agent-lsp's)`);
    try {
      await runInstallCommand({ argv: ['rustup', 'component', 'add', step.route.component] }, '/');
      err(`servers: ✓ ${step.route.component} added in ${seconds(started)}`);
      result(step, `installed (rustup component ${step.route.component})`);
    } catch (e) {
      failed += step.targets.length;
      err(`servers: ✗ rustup component add ${step.route.component} failed: ${(e as Error).message}\nRun by hand: rustup component add ${step.route.component}`);
      result(step, `not installed: ${(e as Error).message}`);
    }
  }
  return failed;
}
