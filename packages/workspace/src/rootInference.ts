import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const GENERIC_MARKERS = ['.git', '.hg', 'package.json', 'pyproject.toml', 'go.mod', 'Cargo.toml'];

/**
 * The project root of a file: the nearest ancestor holding one of the language's markers or a
 * generic one (.git, package.json…). The file's own directory when none is found.
 */
export function inferRoot(file: string, languageMarkers: readonly string[]): string {
  const markers = [...languageMarkers, ...GENERIC_MARKERS];
  const start = dirname(file);
  for (let dir = start; ; dir = dirname(dir)) {
    if (markers.some((m) => existsSync(join(dir, m)))) return dir;
    if (dirname(dir) === dir) return start;
  }
}
