import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { findExecutable } from './executables.js';

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
  for (const dir of ['.venv', 'venv'] as const) {
    const p = join(rootDir, dir, 'bin', 'python');
    if (existsSync(p)) return { path: p, source: dir };
  }
  const onPath = findExecutable('python3', env['PATH'] ?? '') ?? findExecutable('python', env['PATH'] ?? '');
  return onPath ? { path: onPath, source: 'PATH' } : undefined;
}
