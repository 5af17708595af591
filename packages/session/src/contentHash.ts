import { createHash } from 'node:crypto';

/**
 * sha256 of some bytes (a string counts as its UTF-8 bytes), hex: the address of a blob, and how
 * sessions and caches tell whether a file's text is still what they saw.
 */
export function contentHash(data: Uint8Array | string): string {
  return createHash('sha256').update(data).digest('hex');
}
