import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import type { Hover } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { FAULT_SERVER } from '../helpers/faultServer.js';
import { isAlive, waitUntil } from '../helpers/processes.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

/** A broker whose server is the fault-injection server (it hangs, crashes, records cancels). */
describe('a broker whose server misbehaves', () => {
  let dir: string;
  let broker: TestBroker;
  const clients: RawClient[] = [];
  const client = async () => {
    const c = await rawClient(broker.info.socket, { canPull: false });
    clients.push(c);
    return c;
  };
  const open = async (c: RawClient, name: string, text: string) => {
    const uri = pathToUri(join(dir, name));
    writeFileSync(join(dir, name), text);
    await c.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'fault', version: 1, text } });
    return uri;
  };
  const at = { line: 0, character: 0 };

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-fault-broker-')));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'fault', extensions: ['.fault'], command: [process.execPath, FAULT_SERVER] }] }));
    broker = await startTestBroker(dir, 'fault', { config });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a client\'s second request while its first hangs, and maps its cancel to the server\'s id', async () => {
    const c = await client();
    const uri = await open(c, 'a.fault', 'calm');
    const cts = new CancellationTokenSource();
    const hanging = c.rpc.sendRequest('textDocument/definition', { textDocument: { uri }, position: at }, cts.token);
    const hover = await c.rpc.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: at });
    expect(hover.contents).toEqual({ kind: 'markdown', value: 'fault-server hover' });
    cts.cancel();
    await expect(hanging).rejects.toThrow();
    // The server's own handler saw the cancellation: the id the broker forwarded was the right one.
    expect(await c.rpc.sendRequest<string[]>('fault/cancelled', null)).toEqual(['textDocument/definition']);
  });

  it('cancels a client\'s in-flight requests at the server when the client disconnects', async () => {
    const [leaving, staying] = [await client(), await client()];
    const uri = await open(leaving, 'b.fault', 'calm');
    void leaving.rpc.sendRequest('textDocument/definition', { textDocument: { uri }, position: at }).catch(() => undefined);
    await leaving.rpc.sendRequest('textDocument/hover', { textDocument: { uri }, position: at });
    leaving.close();
    let cancelled: string[] = [];
    const deadline = Date.now() + 10_000;
    while (cancelled.length < 2 && Date.now() < deadline) cancelled = await staying.rpc.sendRequest<string[]>('fault/cancelled', null);
    expect(cancelled).toEqual(['textDocument/definition', 'textDocument/definition']);
  });

  it('grants an exclusive section only after the other clients\' in-flight requests have drained', async () => {
    const [busy, taker] = [await client(), await client()];
    const uri = await open(busy, 'lease.fault', 'calm');
    const cts = new CancellationTokenSource();
    const hanging = busy.rpc.sendRequest('textDocument/definition', { textDocument: { uri }, position: at }, cts.token).catch(() => 'cancelled');
    await busy.rpc.sendRequest('textDocument/hover', { textDocument: { uri }, position: at });
    let granted = false;
    const acquire = taker.rpc.sendRequest<{ leaseId: string }>('$/agentLsp/acquire', { leaseMs: 60_000 }).then((r) => {
      granted = true;
      return r;
    });
    // The grant waits on the hanging request: stats answer meanwhile and show no lease yet.
    const stats = await taker.rpc.sendRequest<{ lease: unknown }>('$/agentLsp/stats', null);
    expect(stats.lease).toBeNull();
    expect(granted).toBe(false);
    cts.cancel();
    expect(await hanging).toBe('cancelled');
    const lease = await acquire;
    expect(granted).toBe(true);
    await taker.rpc.sendRequest('$/agentLsp/release', { leaseId: lease.leaseId });
  });

  it('closes only the client that sends a garbage or oversized frame', async () => {
    const healthy = await client();
    for (const frame of ['Content-Length: abc\r\n\r\n{}', 'Content-Length: 99999999999\r\n\r\n', 'Hello there\r\n\r\n']) {
      const s = connect(broker.info.socket);
      await new Promise<void>((r) => s.once('connect', () => r()));
      const closed = new Promise<void>((r) => s.once('close', () => r()));
      s.write(frame);
      await closed;
    }
    const uri = await open(healthy, 'c.fault', 'calm');
    expect(await healthy.rpc.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: at })).toMatchObject({ contents: { value: 'fault-server hover' } });
  });

  it('fails the request of a crashing server with an error naming the crash, then restarts it and re-opens documents', async () => {
    // Each step is bounded, and a step that overruns says which one, with the broker's log.
    const within = <T>(what: string, p: Promise<T>, ms = 30_000): Promise<T> =>
      Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms; broker log:\n${broker.log().slice(-4000)}`)), ms))]);
    const c = await client();
    const calm = await open(c, 'd.fault', 'calm');
    const crashing = await open(c, 'e.fault', 'CRASH');
    const serverPid = broker.info.server.pid;
    await expect(within('the crashing hover', c.rpc.sendRequest('textDocument/hover', { textDocument: { uri: crashing }, position: at }))).rejects.toThrow(/stopped unexpectedly \(exit code 3\)/);
    const status = (pred: (p: { state: string; ready: boolean }) => boolean) => c.notifications.some((n) => n.method === '$/agentLsp/status' && pred(n.params as { state: string; ready: boolean }));
    await waitUntil(() => status((p) => p.state === 'restarting'), 30_000, 'clients to be told restarting');
    await waitUntil(() => status((p) => p.ready), 30_000, 'the broker to be ready again');
    if (serverPid !== undefined) expect(isAlive(serverPid)).toBe(false);
    // The restarted server got d.fault back: the hover is answered without another didOpen.
    expect(await within('the hover after the restart', c.rpc.sendRequest<Hover>('textDocument/hover', { textDocument: { uri: calm }, position: at }))).toMatchObject({ contents: { value: 'fault-server hover' } });
  });
});
