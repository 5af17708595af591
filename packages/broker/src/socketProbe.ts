import { connect } from 'node:net';
import { BrokerStatsRequest } from '@agent-lsp/protocol';

/**
 * What answers on a broker's socket path:
 * - `broker`: it answered `$/agentLsp/stats` (a broker answers that at once, whatever its server does);
 * - `not-broker`: something accepted the connection and answered otherwise;
 * - `hung-up`: it accepted the connection and closed it without a word (a broker that is stopping);
 * - `silent`: it accepted the connection (the kernel does that even for a stopped process) but
 *   said nothing within the probe's time: a wedged broker, or a process that does not speak LSP;
 * - `refused`: nothing listens there (no file, or a file nobody accepts on).
 */
export type SocketVerdict = 'broker' | 'not-broker' | 'hung-up' | 'silent' | 'refused';

/** How long a broker may take to answer the probe before it counts as wedged. */
export const BROKER_PROBE_TIMEOUT_MS = 5_000;

export function probeSocket(path: string, timeoutMs = BROKER_PROBE_TIMEOUT_MS): Promise<SocketVerdict> {
  return new Promise((resolve) => {
    const socket = connect(path);
    let connected = false;
    let buffer = Buffer.alloc(0);
    const done = (verdict: SocketVerdict) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(verdict);
    };
    const timer = setTimeout(() => done(connected ? 'silent' : 'refused'), timeoutMs);
    socket.once('error', () => done(connected ? 'hung-up' : 'refused'));
    socket.once('close', () => done(connected ? 'hung-up' : 'refused'));
    socket.once('connect', () => {
      connected = true;
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: BrokerStatsRequest.method });
      socket.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length > 1 << 20) return done('not-broker');
      // Notifications (a broker's status) may come first: the answer is the message with our id.
      for (;;) {
        const frame = nextFrame(buffer);
        if (frame === undefined) return;
        if (frame === null) return done('not-broker');
        buffer = buffer.subarray(frame.size);
        const message = frame.message as { id?: unknown; method?: unknown; result?: { clients?: unknown } } | null;
        if (message === null || typeof message !== 'object') return done('not-broker');
        if (message.method !== undefined || message.id !== 1) continue;
        return done(typeof message.result?.clients === 'number' ? 'broker' : 'not-broker');
      }
    });
  });
}

/** The first complete LSP frame: its parsed body and size; null when it is not a frame of JSON; undefined while incomplete. */
function nextFrame(buffer: Buffer): { message: unknown; size: number } | null | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return buffer.length > 4096 ? null : undefined;
  const length = /Content-Length:\s*(\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))?.[1];
  if (length === undefined) return null;
  const start = end + 4;
  const size = start + Number(length);
  if (buffer.length < size) return undefined;
  try {
    return { message: JSON.parse(buffer.subarray(start, size).toString('utf8')) as unknown, size };
  } catch {
    return null;
  }
}
