import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentDiagnosticReport, Hover } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri, type BrokerAcquireResult, type BrokerStats } from '@agent-lsp/protocol';
import { fixtureRoot } from '../helpers/brokers.js';
import { waitUntil } from '../helpers/processes.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

/** Polls an async predicate (no sleep decides the outcome: the condition does). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('exclusive sections on a pyright broker', () => {
  let root: string;
  let broker: TestBroker;
  let uri: string;
  let diskText: string;
  const clients: RawClient[] = [];
  const client = async (canPull: boolean) => {
    const c = await rawClient(broker.info.socket, { canPull });
    clients.push(c);
    return c;
  };
  const errors = async (c: RawClient) => {
    const r = await c.rpc.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } });
    return r.kind === 'full' ? r.items.filter((d) => d.severity === 1).length : -1;
  };
  const open = (c: RawClient, version = 1) => c.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version, text: diskText } });
  const leasedText = () => `${diskText}\nthird: str = 3\n`;

  beforeAll(async () => {
    root = fixtureRoot('python-basic');
    const file = join(root, 'python-basic', 'app', 'broken.py');
    uri = pathToUri(file);
    diskText = readFileSync(file, 'utf8');
    broker = await startTestBroker(root, 'python');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await broker.stop();
  });

  it('holds the others\' requests while leased, answers them for the disk text after, and never shows them the leased text', async () => {
    const [holder, other, observer] = [await client(true), await client(false), await client(true)];
    await open(holder);
    await open(other);
    await waitUntil(() => other.pushes.some((p) => p.uri === uri), 30_000, 'the first push to the other client');

    const lease = await holder.rpc.sendRequest<BrokerAcquireResult>('$/agentLsp/acquire', { leaseMs: 60_000 });
    await holder.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: leasedText() }] });
    expect(await errors(holder)).toBe(3);

    let answered = false;
    const hover = other.rpc.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 2, character: 1 } }).then((h) => {
      answered = true;
      return h;
    });
    await eventually(async () => (await observer.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null)).waiting >= 1, 'the broker to count the waiting request');
    expect(answered).toBe(false);
    const stats = await observer.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null);
    expect(stats.lease).toMatchObject({ client: expect.any(Number) });

    await holder.rpc.sendRequest('$/agentLsp/release', { leaseId: lease.leaseId });
    expect(await hover).toBeTruthy();
    // The server has the disk text back: the holder's own view was restored too.
    expect(await errors(holder)).toBe(2);
    await waitUntil(() => other.pushes.filter((p) => p.uri === uri).length >= 2, 30_000, 'a push after the release');
    expect(other.pushes.filter((p) => p.uri === uri).map((p) => p.diagnostics.filter((d) => d.severity === 1).length)).not.toContain(3);
    expect((await observer.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null)).lease).toBeNull();
    for (const c of [holder, other, observer]) c.close();
  });

  it('restores the documents when the lease expires (disconnecting its holder), and when the holder disconnects', async () => {
    const [stalled, observer] = [await client(true), await client(true)];
    await open(stalled);
    await open(observer);
    await stalled.rpc.sendRequest('$/agentLsp/acquire', { leaseMs: 300 });
    await stalled.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: leasedText() }] });
    await eventually(async () => (await observer.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null)).lease === null, 'the lease to expire');
    expect(await errors(observer)).toBe(2);
    // What the stalled holder sends late was meant for a section that is over: it no longer reaches the server.
    await eventually(() => Promise.resolve(stalled.socket.destroyed || stalled.socket.readableEnded), 'the broker to disconnect the stalled holder');
    stalled.close();

    const holder = await client(true);
    await open(holder);
    await holder.rpc.sendRequest('$/agentLsp/acquire', { leaseMs: 60_000 });
    await holder.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: leasedText() }] });
    expect(await errors(holder)).toBe(3);
    holder.close();
    await eventually(async () => (await observer.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null)).lease === null, 'the lease to end with its holder');
    expect(await errors(observer)).toBe(2);
    observer.close();
  });
});
