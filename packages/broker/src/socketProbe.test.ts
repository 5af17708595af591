import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { probeSocket } from './socketProbe.js';

let dir: string | undefined;
let server: Server | undefined;
const sockets: Socket[] = [];

/** Ends the peer of the test's socket and removes its dir. */
function stopListening(): void {
  for (const s of sockets.splice(0)) s.destroy();
  server?.close();
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
}

afterEach(stopListening);

/** A Unix socket whose peer does `onConnection` with each connection. */
async function listening(onConnection: (socket: Socket) => void): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), 'agent-lsp-probe-'));
  const path = join(dir, 's.sock');
  server = createServer((socket) => {
    sockets.push(socket);
    onConnection(socket);
  });
  await new Promise<void>((r) => server?.listen(path, () => r()));
  return path;
}

function frame(message: object): string {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

describe('probeSocket', () => {
  it('calls a path nobody listens on refused', async () => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-probe-'));
    expect(await probeSocket(join(dir, 'none.sock'), 500)).toBe('refused');
  });

  it('calls a peer that answers the stats request (after a notification) a broker', async () => {
    const path = await listening((s) => s.once('data', () => s.write(frame({ jsonrpc: '2.0', method: '$/agentLsp/status', params: {} }) + frame({ jsonrpc: '2.0', id: 1, result: { clients: 1 } }))));
    expect(await probeSocket(path, 2000)).toBe('broker');
  });

  it('calls a peer that answers with an error or with something not LSP not a broker', async () => {
    const lsp = await listening((s) => s.once('data', () => s.write(frame({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'nope' } }))));
    expect(await probeSocket(lsp, 2000)).toBe('not-broker');
    stopListening();
    const http = await listening((s) => s.write('HTTP/1.1 400 Bad Request\r\n\r\n'));
    expect(await probeSocket(http, 2000)).toBe('not-broker');
  });

  it('tells a peer that accepts and says nothing (silent) from one that hangs up', async () => {
    const silent = await listening(() => undefined);
    expect(await probeSocket(silent, 300)).toBe('silent');
    stopListening();
    const hangsUp = await listening((s) => s.destroy());
    expect(await probeSocket(hangsUp, 2000)).toBe('hung-up');
  });
});
