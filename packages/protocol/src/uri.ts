import { fileURLToPath, pathToFileURL } from 'node:url';

/** file:// URI for an absolute path, percent-encoded as LSP servers expect. */
export function pathToUri(path: string): string {
  return pathToFileURL(path).href;
}

/** Absolute path for a file:// URI; undefined for other schemes. */
export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}
