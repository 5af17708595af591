import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, sep } from 'node:path';

const VCS_MARKERS = ['.git', '.hg'];
const PYTHON_PROJECT = ['pyproject.toml', 'setup.py', 'setup.cfg'];
const JS_PROJECT = ['package.json', 'pnpm-workspace.yaml', 'lerna.json'];

export interface InferRootOptions {
  /** The user's home: the walk never reaches it or anything above it. Default: os.homedir(). */
  home?: string;
}

/**
 * The project root of a file, never guessed small: the nearest VCS root (.git, .hg) when there
 * is one — it bounds the walk — else the outermost project the file belongs to:
 * - Python: above the outermost package (`__init__.py` chain), or the nearest
 *   pyproject.toml/setup.py/setup.cfg above that;
 * - JS/TS: the outermost package.json (or pnpm-workspace.yaml, lerna.json) from the nearest
 *   package.json up: a workspace root, or the project a nested or vendored package lies in;
 * - Go: go.work above wins over the nearest go.mod;
 * - Cargo: a Cargo.toml with `[workspace]` above wins over the nearest Cargo.toml;
 * - the language's own markers (tsconfig.json, compile_commands.json…), nearest.
 * The walk stops below the user's home and below `/`. The file's own directory when nothing is found.
 */
export function inferRoot(file: string, languageMarkers: readonly string[], options: InferRootOptions = {}): string {
  const chain = ancestors(dirname(file), options.home ?? homedir());
  const start = chain[0] as string;
  const vcs = chain.find((dir) => VCS_MARKERS.some((m) => existsSync(join(dir, m))));
  if (vcs) return vcs;
  const found = [pythonRoot(chain), jsRoot(chain), goRoot(chain), cargoRoot(chain), nearest(chain, (d) => hasAny(d, languageMarkers))];
  // The outermost answer has the shortest path: every candidate is an ancestor of the file.
  const outermost = found.filter((d): d is string => d !== undefined).sort((a, b) => a.length - b.length)[0];
  return outermost ?? start;
}

/** `start` and its parents, up to (not including) the user's home, its ancestors, and `/`. */
function ancestors(start: string, home: string): string[] {
  const chain = [start];
  for (let dir = dirname(start); dir !== dirname(dir); dir = dirname(dir)) {
    if (dir === home || home.startsWith(dir.endsWith(sep) ? dir : dir + sep)) break;
    chain.push(dir);
  }
  return chain;
}

function hasAny(dir: string, names: readonly string[]): boolean {
  return names.some((n) => existsSync(join(dir, n)));
}

function nearest(chain: readonly string[], test: (dir: string) => boolean, from = 0): string | undefined {
  return chain.slice(from).find(test);
}

function outermost(chain: readonly string[], test: (dir: string) => boolean, from = 0): string | undefined {
  return chain.slice(from).reverse().find(test);
}

function pythonRoot(chain: readonly string[]): string | undefined {
  let above = 0;
  while (above < chain.length - 1 && existsSync(join(chain[above] as string, '__init__.py'))) above++;
  return nearest(chain, (d) => hasAny(d, PYTHON_PROJECT), above) ?? (above > 0 ? chain[above] : undefined);
}

/** A package inside another (vendored, nested, or a workspace member) belongs to the outer project. */
function jsRoot(chain: readonly string[]): string | undefined {
  const pkg = chain.findIndex((d) => existsSync(join(d, 'package.json')));
  if (pkg < 0) return undefined;
  return outermost(chain, (d) => hasAny(d, JS_PROJECT), pkg);
}

function goRoot(chain: readonly string[]): string | undefined {
  return nearest(chain, (d) => existsSync(join(d, 'go.work'))) ?? nearest(chain, (d) => existsSync(join(d, 'go.mod')));
}

function cargoRoot(chain: readonly string[]): string | undefined {
  const crate = chain.findIndex((d) => existsSync(join(d, 'Cargo.toml')));
  if (crate < 0) return undefined;
  return outermost(chain, (d) => declaresCargoWorkspace(join(d, 'Cargo.toml')), crate) ?? chain[crate];
}

function declaresCargoWorkspace(cargoToml: string): boolean {
  try {
    return /^\s*\[workspace\]/m.test(readFileSync(cargoToml, 'utf8'));
  } catch {
    return false;
  }
}
