import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** Finds an executable on PATH (or checks an absolute path); undefined when there is none. */
export function findExecutable(name: string, pathEnv = process.env['PATH'] ?? ''): string | undefined {
  const candidates = isAbsolute(name) ? [name] : pathEnv.split(delimiter).filter(Boolean).map((d) => join(d, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
