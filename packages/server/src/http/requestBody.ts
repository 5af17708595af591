import type { IncomingMessage } from 'node:http';

/** Why a body could not be read: too large (413), not JSON (400), or the client stopped sending. */
export class BodyError extends Error {
  constructor(
    readonly status: 400 | 408 | 413,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads a request body up to `limitBytes` and parses it as JSON (undefined when empty). A declared
 * Content-Length over the limit is refused before reading; a body that grows past it (chunked, no
 * length) is refused once it does, and what the client still sends is read and dropped: breaking
 * off the read destroyed the socket with the client's bytes unread, which reset the connection
 * before the client could read the 413 (see `lingerAfterRefusal`).
 */
export function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limitBytes) return Promise.reject(new BodyError(413, `Request body of ${declared} bytes exceeds the limit of ${limitBytes} bytes.`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size <= limitBytes) return void chunks.push(chunk);
      refused = true;
      chunks.length = 0;
      reject(new BodyError(413, `Request body exceeds the limit of ${limitBytes} bytes.`));
    });
    req.once('error', reject);
    req.once('end', () => {
      if (refused) return;
      if (size === 0) return resolve(undefined);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
      } catch {
        reject(new BodyError(400, 'Parse error: the request body is not valid JSON.'));
      }
    });
  });
}

/** How long the rest of a refused body is read and dropped before the connection is closed. */
export const LINGER_MS = 2_000;

/**
 * After a refusal sent while the client may still be sending its body: the rest is read and
 * dropped for up to LINGER_MS, so that the connection closes after the client has its answer
 * instead of being reset under it (closing a socket with unread bytes sends a reset, and a client
 * still writing then loses the 413 it had not read yet); past that, the connection is closed.
 */
export function lingerAfterRefusal(req: IncomingMessage): void {
  req.resume();
  if (req.complete) return;
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
}
