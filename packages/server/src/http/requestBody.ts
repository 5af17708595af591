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
 * Content-Length over the limit is refused before reading; a body that grows past it is cut off.
 */
export async function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limitBytes) throw new BodyError(413, `Request body of ${declared} bytes exceeds the limit of ${limitBytes} bytes.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limitBytes) throw new BodyError(413, `Request body exceeds the limit of ${limitBytes} bytes.`);
    chunks.push(chunk);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new BodyError(400, 'Parse error: the request body is not valid JSON.');
  }
}
