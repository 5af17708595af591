import { dirname, join } from 'node:path';
import { findExecutable } from './executables.js';
import { findServerExecutable } from './installedServers.js';

/**
 * Where a language server a project installed for itself lives: node_modules/.bin of the root
 * or any directory above it (as npm resolves), the root's virtualenv (.venv, venv) and the
 * active one ($VIRTUAL_ENV). Searched before PATH: the project's own version is the one its
 * editor uses.
 */
export function projectBinDirs(rootDir: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs: string[] = [];
  for (let dir = rootDir; ; dir = dirname(dir)) {
    dirs.push(join(dir, 'node_modules', '.bin'));
    if (dirname(dir) === dir) break;
  }
  dirs.push(join(rootDir, '.venv', 'bin'), join(rootDir, 'venv', 'bin'));
  const active = env['VIRTUAL_ENV'];
  if (active) dirs.push(join(active, 'bin'));
  return dirs;
}

export interface FoundExecutable {
  path: string;
  /** project: node_modules/.bin or a virtualenv; installed: by `agent-lsp servers install`; PATH: the user's PATH. */
  where: 'project' | 'installed' | 'PATH';
  /** For an installed one: route, package, version and directory. */
  details: Record<string, string>;
}

/** The executable for a root: the project's own first, then the one `servers install` installed, then PATH. */
export function findProjectExecutable(name: string, rootDir: string, env: NodeJS.ProcessEnv = process.env): FoundExecutable | undefined {
  const inProject = findExecutable(name, projectBinDirs(rootDir, env).join(':'));
  if (inProject) return { path: inProject, where: 'project', details: {} };
  return findServerExecutable(name, env);
}
