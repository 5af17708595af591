import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The two file system calls marker lookups make: the disk's, or a test's that counts them. */
export interface MarkerFiles {
  /** What changes when the file does (inode, size, change and modification times), or undefined when nothing is there. */
  identity(path: string): string | undefined;
  read(path: string): string;
}

export const diskMarkerFiles: MarkerFiles = {
  identity(path) {
    const s = statSync(path, { bigint: true, throwIfNoEntry: false });
    return s && `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  },
  read: (path) => readFileSync(path, 'utf8'),
};

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies'] as const;
/** Past this many package.json files remembered, the memory starts over (a workspace has far fewer). */
const MAX_REMEMBERED = 4096;

/**
 * Whether a directory lies under a project marker (ServerDefinition.claimsUnder): a file name, or
 * `file#dependency` for a package.json that depends on that package (`package.json#vue`). Routing
 * asks this for every .ts/.js file once the Vue pair is installed, so a package.json's dependency
 * names are read once and kept while its identity (a stat) stays the same: an edit that adds or
 * removes the dependency is seen at the next routing, without reading and parsing every
 * package.json up the tree on every query.
 */
export class ProjectMarkers {
  private readonly dependencies = new Map<string, { identity: string; names: ReadonlySet<string> }>();

  constructor(private readonly files: MarkerFiles = diskMarkerFiles) {}

  /** Whether `dir` or a directory above it holds one of `markers`. */
  above(dir: string, markers: readonly string[]): boolean {
    for (let at = dir; ; at = dirname(at)) {
      if (markers.some((m) => this.holds(at, m))) return true;
      if (dirname(at) === at) return false;
    }
  }

  private holds(dir: string, marker: string): boolean {
    const [file = marker, dependency] = marker.split('#');
    const path = join(dir, file);
    const identity = this.files.identity(path);
    if (identity === undefined) return false;
    return dependency ? this.dependencyNames(path, identity).has(dependency) : true;
  }

  private dependencyNames(path: string, identity: string): ReadonlySet<string> {
    const known = this.dependencies.get(path);
    if (known?.identity === identity) return known.names;
    const names = new Set<string>();
    try {
      const pkg = JSON.parse(this.files.read(path)) as Record<string, unknown>;
      for (const field of DEPENDENCY_FIELDS) {
        const deps = pkg[field];
        if (deps && typeof deps === 'object') for (const name of Object.keys(deps)) names.add(name);
      }
    } catch {
      // Unreadable or not JSON: it depends on nothing until it changes.
    }
    if (this.dependencies.size >= MAX_REMEMBERED) this.dependencies.clear();
    this.dependencies.set(path, { identity, names });
    return names;
  }
}
