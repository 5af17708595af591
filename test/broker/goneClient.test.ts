// Issue 29 item 2: what a client sent before it went, still queued behind another client's
// exclusive section, must not reach the server once it is gone — otherwise the server keeps text
// no client holds (a phantom function every later client finds, a real one nobody does).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SymbolInformation } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri, type BrokerAcquireResult, type BrokerStats } from '@agent-lsp/protocol';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('messages of a client that has gone (pyright broker)', () => {
  let dir: string;
  let broker: TestBroker;
  let uri: string;
  const clients: RawClient[] = [];
  const client = async () => {
    const c = await rawClient(broker.info.socket, { canPull: true });
    clients.push(c);
    return c;
  };
  const stats = (c: RawClient) => c.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null);
  const symbols = (c: RawClient, query: string) => c.rpc.sendRequest<SymbolInformation[] | null>('workspace/symbol', { query });

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-gone-client-')));
    mkdirSync(join(dir, 'pkg'));
    writeFileSync(join(dir, 'pkg', '__init__.py'), '');
    const file = join(dir, 'pkg', 'real.py');
    writeFileSync(file, 'def real_fn() -> int:\n    return 1\n');
    uri = pathToUri(file);
    broker = await startTestBroker(dir, 'python');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops a didOpen queued behind a lease when its sender disconnected, and holds no document without a holder', async () => {
    const holder = await client();
    const lease = await holder.rpc.sendRequest<BrokerAcquireResult>('$/agentLsp/acquire', { leaseMs: 60_000 });

    const leaver = await client();
    await leaver.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: 'def phantom_fn() -> int:\n    return 2\n' } });
    await eventually(async () => (await stats(holder)).waiting >= 1, "the broker to hold the leaver's didOpen behind the lease");
    leaver.close();
    await eventually(async () => (await stats(holder)).clients === 1, 'the broker to see the leaver gone');

    await holder.rpc.sendRequest('$/agentLsp/release', { leaseId: lease.leaseId });
    holder.close();

    const fresh = await client();
    expect((await symbols(fresh, 'phantom_fn')) ?? []).toEqual([]);
    const real = (await symbols(fresh, 'real_fn')) ?? [];
    expect(real.map((s) => [s.name, s.location.uri])).toContainEqual(['real_fn', uri]);
    // The invariant itself: every document the server holds is some connected client's, or the disk's text.
    expect((await stats(fresh)).unheldDocuments).toEqual([]);
  });
});
