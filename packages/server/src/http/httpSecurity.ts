import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** A fresh bearer token (printed once when neither --token nor AGENT_LSP_TOKEN names one). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * True when the request carries `Authorization: Bearer <expected>`. Both sides are hashed first,
 * so timingSafeEqual compares equal-length buffers and the time taken says nothing about the token.
 */
export function bearerMatches(req: IncomingMessage, expected: string): boolean {
  const header = req.headers.authorization;
  if (typeof header !== 'string') return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const given = match?.[1] ?? '';
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && match !== null;
}

/** Loopback listen addresses: the only ones `--no-auth` is accepted on. */
export function isLoopbackAddress(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host);
  return false;
}

/**
 * DNS-rebinding protection (the MCP spec asks it of local servers): a browser page of another
 * origin must not drive this server. No Origin (a non-browser client) is fine; a loopback origin
 * (http://localhost:*, http://127.0.0.1:*, http://[::1]:*) is fine; others only when allowed.
 */
export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  const normalized = normalizeOrigin(origin);
  if (normalized === undefined) return false;
  if (allowed.some((a) => normalizeOrigin(a) === normalized)) return true;
  try {
    const url = new URL(normalized);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackAddress(url.hostname);
  } catch {
    return false;
  }
}

function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    if (url.origin === 'null') return undefined;
    return url.origin.toLowerCase();
  } catch {
    return undefined;
  }
}
