import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MANIFEST_FILE, type InstallManifest } from '@agent-lsp/lsp';
import type { PlanStep } from './installPlan.js';
import { binaryPath, installCommands, manualCommand, type InstallCommand } from './routeCommands.js';

type InstallStep = Extract<PlanStep, { action: 'install' }>;

/** An install that did not complete: nothing of it is left; `output` is the end of what the tools printed. */
export class InstallFailed extends Error {
  constructor(
    message: string,
    readonly output: string,
    readonly manual: string,
  ) {
    super(message);
    this.name = 'InstallFailed';
  }
}

/** Runs one command, its output kept (not shown: progress is ours); rejects with the output's end when it fails. */
export function runInstallCommand(command: InstallCommand, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const [file, ...args] = command.argv as [string, ...string[]];
    const child = spawn(file, args, { cwd, env: { ...process.env, ...command.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (e) => reject(new InstallFailed(`${file} did not start: ${e.message}`, output, '')));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(output);
      else reject(new InstallFailed(`\`${command.argv.join(' ')}\` failed (${signal ?? `exit ${code}`})`, output, ''));
    });
  });
}

/** The staging area: beside the installs (one filesystem, so the final rename is atomic). */
export function stagingRoot(home: string): string {
  return join(home, '.staging');
}

/** Removes what earlier installs left in staging when their process is gone (killed mid-install). */
export function cleanStaleStaging(home: string): void {
  const root = stagingRoot(home);
  if (!existsSync(root)) return;
  for (const entry of readdirSync(root)) {
    const pid = Number(/\.(\d+)\.[a-z0-9]+(\.old)?$/.exec(entry)?.[1]);
    if (Number.isInteger(pid) && (pid === process.pid || processAlive(pid))) continue;
    rmSync(join(root, entry), { recursive: true, force: true });
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A venv's scripts name its interpreter by absolute path (`#!<venv>/bin/python`): after the
 * rename they must name the final one. Only text files of bin/ that mention the staging path.
 */
function relocateVenv(stagedDir: string, finalDir: string): void {
  const bin = join(stagedDir, 'venv', 'bin');
  for (const name of readdirSync(bin)) {
    const path = join(bin, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > 1_000_000) continue;
    const text = readFileSync(path);
    if (text.includes(0)) continue;
    const before = text.toString('utf8');
    if (before.includes(stagedDir)) writeFileSync(path, before.split(stagedDir).join(finalDir), { mode: st.mode });
  }
}

function installedVersions(step: InstallStep, dir: string): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const p of step.route.packages) {
    if (step.route.kind === 'npm') {
      try {
        versions[p.name] = (JSON.parse(readFileSync(join(dir, 'node_modules', p.name, 'package.json'), 'utf8')) as { version: string }).version;
      } catch {
        // not recorded
      }
    } else versions[p.name] = p.version;
  }
  return versions;
}

/** `<home>/bin/<name>` → `../<unit>/<path>`, replaced atomically (a temporary link renamed over the old one). */
export function linkBinaries(step: Pick<InstallStep, 'route' | 'unit' | 'unitDir'>, home: string): string[] {
  const bin = join(home, 'bin');
  mkdirSync(bin, { recursive: true });
  return step.route.binaries.map((name) => {
    const link = join(bin, name);
    const temp = join(bin, `.${name}.${process.pid}.link`);
    rmSync(temp, { force: true });
    symlinkSync(relative(bin, join(step.unitDir, binaryPath(step.route, name))), temp);
    renameSync(temp, link);
    return link;
  });
}

/**
 * Installs a route into a fresh staging directory, checks that every executable it promises is
 * there, writes the manifest, and only then renames it into place (replacing an install of
 * other versions). Any failure removes the staging directory: the servers home never holds a
 * half-installed server, and the error names the command to run by hand.
 */
export async function stagedInstall(step: InstallStep, home: string, commandsFor: (dir: string) => InstallCommand[] = (dir) => installCommands(step.route, dir, step.python)): Promise<InstallManifest> {
  mkdirSync(stagingRoot(home), { recursive: true });
  const staged = join(stagingRoot(home), `${step.unit}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(staged);
  try {
    for (const command of commandsFor(staged)) {
      await runInstallCommand(command, staged);
    }
    const missing = step.route.binaries.filter((b) => !existsSync(join(staged, binaryPath(step.route, b))));
    if (missing.length > 0) throw new InstallFailed(`the install provides no ${missing.join(', ')}`, '', '');
    if (step.route.kind === 'pip') relocateVenv(staged, step.unitDir);
    const manifest: InstallManifest = {
      schema: 1,
      unit: step.unit,
      kind: step.route.kind,
      packages: step.route.packages.map((p) => ({ ...p })),
      binaries: Object.fromEntries(step.route.binaries.map((b) => [b, binaryPath(step.route, b)])),
      installedVersions: installedVersions(step, staged),
      installedAt: new Date().toISOString(),
    };
    writeFileSync(join(staged, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
    moveIntoPlace(staged, step.unitDir);
    linkBinaries(step, home);
    return manifest;
  } catch (e) {
    rmSync(staged, { recursive: true, force: true });
    const failed = e instanceof InstallFailed ? e : new InstallFailed((e as Error).message, '', '');
    throw new InstallFailed(failed.message, failed.output, manualCommand(step.route));
  }
}

/** Renames the staged install into place; an older one is moved aside first and removed after. */
function moveIntoPlace(staged: string, unitDir: string): void {
  const old = existsSync(unitDir) ? `${staged}.old` : undefined;
  if (old) renameSync(unitDir, old);
  try {
    renameSync(staged, unitDir);
  } catch (e) {
    if (old) renameSync(old, unitDir);
    throw e;
  }
  if (old) rmSync(old, { recursive: true, force: true });
}
