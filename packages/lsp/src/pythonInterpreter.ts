import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable } from './executables.js';

/** The root's own virtualenvs, in the order they are taken. */
const ROOT_VENVS = ['.venv', 'venv'] as const;

export interface PythonInterpreter {
  path: string;
  /** Where it was found, for doctor and status output. */
  source: 'VIRTUAL_ENV' | '.venv' | 'venv' | 'PATH';
}

/**
 * The interpreter pyright should resolve imports against: the active virtualenv, else a
 * `.venv`/`venv` in the root, else python3 on PATH. Part of the server profile, because it
 * changes the server's answers.
 */
export function detectPythonInterpreter(rootDir: string, env: NodeJS.ProcessEnv = process.env): PythonInterpreter | undefined {
  const venv = env['VIRTUAL_ENV'];
  if (venv) {
    const p = join(venv, 'bin', 'python');
    if (existsSync(p)) return { path: p, source: 'VIRTUAL_ENV' };
  }
  for (const dir of ROOT_VENVS) {
    const p = join(rootDir, dir, 'bin', 'python');
    if (existsSync(p)) return { path: p, source: dir };
  }
  const onPath = findExecutable('python3', env['PATH'] ?? '') ?? findExecutable('python', env['PATH'] ?? '');
  return onPath ? { path: onPath, source: 'PATH' } : undefined;
}

/**
 * The site-packages of the root's own virtualenvs (`.venv`, `venv`: the ones detectPythonInterpreter
 * takes): pyright resolves imports there, and the workspace watcher skips both directories, so
 * a package installed into them would never be news to it (libraryWatchTargets).
 */
export function pythonEnvironmentDirs(rootDir: string): string[] {
  const dirs: string[] = [];
  for (const venv of ROOT_VENVS) {
    for (const lib of ['lib', 'lib64']) {
      const libDir = join(rootDir, venv, lib);
      let versions: string[];
      try {
        versions = readdirSync(libDir).filter((name) => name.startsWith('python'));
      } catch {
        continue;
      }
      for (const v of versions) {
        const site = join(libDir, v, 'site-packages');
        if (!existsSync(site)) continue;
        // lib64 is usually a link to lib: one directory, listed once.
        const real = realpathSync(site);
        if (!dirs.includes(real)) dirs.push(real);
      }
    }
  }
  return dirs;
}

/** ServerDefinition.environmentOf for Python servers: the interpreter detectPythonInterpreter finds now. */
export function pythonEnvironmentOf(rootDir: string, interpreter = detectPythonInterpreter(rootDir)): string {
  return interpreter?.path ?? 'no-python';
}
