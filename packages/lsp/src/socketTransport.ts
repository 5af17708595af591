import { connect, type Socket } from 'node:net';
import type { ExitInfo, ServerTransport } from './serverProcess.js';

/**
 * A transport over a socket: TCP to an externally started server (passive mode), or a Unix
 * socket. Terminating it closes our end only; the server is not ours to kill.
 */
export function connectSocketTransport(target: { host: string; port: number } | { path: string }, timeoutMs = 10_000): Promise<ServerTransport> {
  return new Promise((resolve, reject) => {
    const socket: Socket = 'path' in target ? connect(target.path) : connect(target.port, target.host);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    const exited = new Promise<ExitInfo>((r) => socket.once('close', (hadError) => r({ reason: hadError ? 'socket error' : 'socket closed', stderrTail: '' })));
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.on('error', () => undefined); // 'close' reports the end
      resolve({
        input: socket,
        output: socket,
        pid: undefined,
        exited,
        async terminate() {
          socket.end();
          socket.destroy();
          await exited;
        },
      });
    });
  });
}
