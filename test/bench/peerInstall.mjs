// The peers the "Peers" benchmark runs beside ours, installed once into the bench's cache dir with
// the registries' ordinary clients, never into the machine's global environment: Serena (PyPI
// serena-agent) into a private venv, cclsp and lsmcp (npm) into private prefixes. Each answers
// `{ ...paths }` or `{ notRun }` with the reason it could not be had.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SERENA_VERSION = '2.1.0';
export const CCLSP_VERSION = '0.7.0';
// lsmcp 0.9 and 0.10 import node:sqlite (Node ≥ 22); 0.8.3 is the last that runs on Node 20.
export const LSMCP_VERSION = '0.8.3';

/** A dir of the bench's own cache (XDG_CACHE_HOME or ~/.cache, then agent-lsp-bench/`name`). */
export function benchCache(name) {
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-lsp-bench', name);
}

const why = (r) => (r.error?.message ?? `${r.stderr ?? ''}${r.stdout ?? ''}`).trim().split('\n').slice(-3).join(' ').slice(0, 240);

/** Serena in a venv of its own: `{ serena, template }` (its CLI, its config template) or `{ notRun }`. */
export function serenaInstall() {
  const dir = benchCache(`serena-${SERENA_VERSION}`);
  const serena = join(dir, 'venv', 'bin', 'serena');
  if (existsSync(serena)) return serenaHandle(dir, serena);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const venv = spawnSync('python3', ['-m', 'venv', join(dir, 'venv')], { encoding: 'utf8', timeout: 120_000 });
  if (venv.status !== 0) return { notRun: `python3 -m venv failed: ${why(venv)}` };
  const pip = spawnSync(join(dir, 'venv', 'bin', 'pip'), ['install', '--quiet', `serena-agent==${SERENA_VERSION}`], { encoding: 'utf8', timeout: 900_000 });
  if (pip.status !== 0 || !existsSync(serena)) return { notRun: `pip install serena-agent==${SERENA_VERSION} failed: ${why(pip)}` };
  return serenaHandle(dir, serena);
}

function serenaHandle(dir, serena) {
  const ask = spawnSync(join(dir, 'venv', 'bin', 'python'), ['-c', 'from serena.constants import SERENA_CONFIG_TEMPLATE_FILE as f; print(f)'], { encoding: 'utf8', timeout: 60_000 });
  const template = ask.stdout?.trim();
  if (ask.status !== 0 || !template || !existsSync(template)) return { notRun: `serena-agent ${SERENA_VERSION} is installed but its config template was not found: ${why(ask)}` };
  return { serena, template, label: `Serena ${SERENA_VERSION} (PyPI serena-agent)` };
}

/** An npm package in a prefix of its own: `{ entry }` (the script `main` names, run with this node) or `{ notRun }`. */
export function npmInstall(pkg, version, main) {
  const dir = benchCache(`${pkg.replace(/[@/]/g, '_')}-${version}`);
  const entry = join(dir, 'node_modules', pkg, main);
  const label = `${pkg.replace(/^@[^/]+\//, '')} ${version} (npm ${pkg})`;
  if (existsSync(entry)) return { entry, label };
  mkdirSync(dir, { recursive: true });
  const npm = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', `${pkg}@${version}`], { encoding: 'utf8', timeout: 600_000 });
  if (npm.status !== 0 || !existsSync(entry)) return { notRun: `npm install ${pkg}@${version} failed: ${why(npm)}` };
  return { entry, label };
}
