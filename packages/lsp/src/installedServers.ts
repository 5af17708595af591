import { readFileSync, readlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { findExecutable } from './executables.js';
import type { InstalledRouteKind, InstallPackage } from './installRoutes.js';

/**
 * Where `agent-lsp servers install` puts servers: `$AGENT_LSP_HOME/servers`, else
 * `${XDG_STATE_HOME:-~/.local/state}/agent-lsp/servers` (beside checkpoints and the audit log,
 * where cache cleaners do not reach). One directory per install (`npm-intelephense`,
 * `pip-basedpyright`…), each complete or absent, and `bin/` with a link per executable.
 */
export function serversHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = env['AGENT_LSP_HOME'];
  if (home) return join(home, 'servers');
  return join(env['XDG_STATE_HOME'] || join(homedir(), '.local', 'state'), 'agent-lsp', 'servers');
}

/** The one directory of installed executables: searched after the project's own, before PATH. */
export function installedBinDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(serversHome(env), 'bin');
}

/** The record an install leaves in its directory, written last: a directory without it is no install. */
export interface InstallManifest {
  schema: 1;
  unit: string;
  kind: InstalledRouteKind;
  /** As pinned by the route. */
  packages: InstallPackage[];
  /** Executable name → its path relative to the install's directory. */
  binaries: Record<string, string>;
  /** What the package manager says it installed, when it says (npm's package.json, pip's metadata). */
  installedVersions: Record<string, string>;
  installedAt: string;
}

export const MANIFEST_FILE = 'agent-lsp-install.json';

/** The manifest of an install directory; undefined when it is absent or unreadable (no install). */
export function readInstallManifest(unitDir: string): InstallManifest | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(unitDir, MANIFEST_FILE), 'utf8')) as InstallManifest;
    return parsed.schema === 1 && typeof parsed.binaries === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** An executable linked in the servers home: its path, and the install it belongs to. */
export interface InstalledExecutable {
  path: string;
  unitDir: string;
  manifest: InstallManifest;
}

/** The executable `name` as `servers install` left it, when its link leads into a complete install. */
export function findInstalledExecutable(name: string, env: NodeJS.ProcessEnv = process.env): InstalledExecutable | undefined {
  const bin = installedBinDir(env);
  const link = join(bin, name);
  if (!findExecutable(link)) return undefined;
  try {
    // <servers>/bin/<name> → ../<unit>/<relative path>
    const target = resolve(bin, readlinkSync(link));
    const unitDir = join(serversHome(env), target.slice(serversHome(env).length + 1).split('/')[0] ?? '');
    const manifest = readInstallManifest(unitDir);
    return manifest ? { path: link, unitDir, manifest } : undefined;
  } catch {
    return undefined;
  }
}

/** One line for doctor and `servers list`: route, package and version, and the directory. */
export function describeInstall(found: InstalledExecutable): string {
  const main = found.manifest.packages[0];
  const version = main ? (found.manifest.installedVersions[main.name] ?? main.version) : '?';
  return `${found.manifest.kind} ${main?.name ?? '?'} ${version} in ${found.unitDir}`;
}

/** A server's executable outside the project: installed by `servers install` first, then PATH. */
export interface ServerExecutable {
  path: string;
  where: 'installed' | 'PATH';
  /** For an installed one: route, package, version and directory (doctor shows it). */
  details: Record<string, string>;
}

/** Looks `name` up where agent-lsp installs servers, then on PATH (an absolute path is checked as it is). */
export function findServerExecutable(name: string, env: NodeJS.ProcessEnv = process.env): ServerExecutable | undefined {
  if (!name.includes('/')) {
    const installed = findInstalledExecutable(name, env);
    if (installed) return { path: installed.path, where: 'installed', details: { installed: describeInstall(installed) } };
  }
  const onPath = findExecutable(name, env['PATH'] ?? '');
  return onPath ? { path: onPath, where: 'PATH', details: {} } : undefined;
}
