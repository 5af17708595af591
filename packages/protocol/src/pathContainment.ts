import { isAbsolute, relative, sep } from 'node:path';

/** True when `path` is `root` or lies below it. Both must be absolute and already normalized. */
export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
}

/** The path as shown to agents: relative to the first root that contains it, else absolute. */
export function displayPath(roots: readonly string[], path: string): string {
  for (const root of roots) {
    if (isWithin(root, path)) return relative(root, path) || '.';
  }
  return path;
}
