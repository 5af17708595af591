// Issue 29 item 3: exclusive sections taken back to back must not starve the other clients.
// Between two leases, what the others had waiting runs: an observer's hover sent during one lease
// is answered before the lease after next is granted (counted in leases granted, not timed).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hover } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri, type BrokerAcquireResult, type BrokerStats } from '@agent-lsp/protocol';
import { fixtureRoot } from '../helpers/brokers.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

/** Clients taking leases back to back, rounds each, and how long each holds its lease. */
const HOLDERS = 4;
const ROUNDS = 3;
const HOLD_MS = 500;
const HOVERS = 5;

describe('leases taken back to back on a pyright broker', () => {
  let root: string;
  let broker: TestBroker;
  const clients: RawClient[] = [];
  const client = async () => {
    const c = await rawClient(broker.info.socket, { canPull: true });
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    root = fixtureRoot('python-basic');
    broker = await startTestBroker(root, 'python');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await broker.stop();
  });

  it("answers another client's hovers between them", async () => {
    const file = join(root, 'python-basic', 'app', 'geometry.py');
    const uri = pathToUri(file);
    const text = readFileSync(file, 'utf8');
    const holders = await Promise.all(Array.from({ length: HOLDERS }, client));
    const observer = await client();
    for (const c of [...holders, observer]) await c.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
    const hover = () => observer.rpc.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: 11, character: 5 } });
    const granted = async () => (await observer.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null)).leasesGranted;
    expect(await hover()).toBeTruthy();

    let version = 1;
    const section = async (c: RawClient) => {
      const lease = await c.rpc.sendRequest<BrokerAcquireResult>('$/agentLsp/acquire', { leaseMs: 60_000 });
      // An evaluation's overlay, restored when the lease ends.
      await c.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: ++version }, contentChanges: [{ text: `${text}\nleased: int = "x"\n` }] });
      await new Promise((r) => setTimeout(r, HOLD_MS));
      await c.rpc.sendRequest('$/agentLsp/release', { leaseId: lease.leaseId });
    };
    const before = await granted();
    let leasing = true;
    const leases = Promise.all(
      holders.map(async (c) => {
        for (let i = 0; i < ROUNDS; i++) await section(c);
      }),
    ).finally(() => (leasing = false));

    // Each hover is sent while leases are being taken; it is answered before the lease after the
    // next one is granted. Read before it is sent, the count may be of a lease that is just ending,
    // and read after its answer it may include the grant that answer let go: at most two more.
    const spans: number[] = [];
    while (spans.length < HOVERS && leasing) {
      const sentAt = await granted();
      if (sentAt === before) continue; // not leasing yet
      const answer = await hover();
      spans.push((await granted()) - sentAt);
      expect(answer).toBeTruthy();
    }
    await leases;
    expect(spans.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...spans)).toBeLessThanOrEqual(2);
    expect(await granted()).toBe(before + HOLDERS * ROUNDS);
  });
});
