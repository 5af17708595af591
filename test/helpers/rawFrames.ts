import { connect, type Socket } from 'node:net';

/**
 * A socket on a broker that speaks bytes, not LSP: for sending what no LSP library would
 * (malformed headers, invalid JSON, messages nested thousands deep). It records whether the broker
 * closed it and the frames the broker answered with.
 */
export interface FrameSocket {
  socket: Socket;
  /** Resolves when the broker closed the connection (or it failed). */
  closed: Promise<void>;
  isClosed(): boolean;
  /** Bodies of the frames received so far, parsed. */
  received: unknown[];
  send(bytes: string | Buffer): void;
  sendMessage(message: unknown): void;
  /** Resolves with the response to request `id`, or undefined if the socket closes first. */
  response(id: number | string, timeoutMs?: number): Promise<{ result?: unknown; error?: { code: number; message: string } } | undefined>;
  close(): void;
}

export function frame(body: string | Buffer): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`), bytes]);
}

export async function frameSocket(path: string): Promise<FrameSocket> {
  const socket = connect(path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let closedFlag = false;
  const closed = new Promise<void>((resolve) => {
    socket.once('close', () => {
      closedFlag = true;
      resolve();
    });
  });
  socket.on('error', () => undefined);
  const received: unknown[] = [];
  let pending = Buffer.alloc(0);
  const waiters = new Set<() => void>();
  socket.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) break;
      const length = Number(/Content-Length: *(\d+)/i.exec(pending.subarray(0, end).toString())?.[1]);
      if (pending.length < end + 4 + length) break;
      received.push(JSON.parse(pending.subarray(end + 4, end + 4 + length).toString()));
      pending = pending.subarray(end + 4 + length);
    }
    for (const w of waiters) w();
  });
  const send = (bytes: string | Buffer) => {
    if (!socket.destroyed) socket.write(bytes);
  };
  const find = (id: number | string) => received.find((m) => (m as { id?: unknown }).id === id && ('result' in (m as object) || 'error' in (m as object)));
  return {
    socket,
    closed,
    isClosed: () => closedFlag,
    received,
    send,
    sendMessage: (message) => send(frame(JSON.stringify(message))),
    response(id, timeoutMs = 60_000) {
      return new Promise((resolve) => {
        const check = () => {
          const found = find(id);
          if (found || closedFlag) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(found as { result?: unknown; error?: { code: number; message: string } } | undefined);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          resolve(undefined);
        }, timeoutMs);
        waiters.add(check);
        void closed.then(check);
        check();
      });
    },
    close: () => socket.destroy(),
  };
}

/** A request body whose params nest `depth` arrays deep, in about 2 × depth bytes. */
export function deepRequest(id: number, method: string, depth: number): string {
  return `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":{"command":"x","arguments":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
}
