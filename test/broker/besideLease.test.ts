// Issue 29 item 3 / issue 32 item 3: an agent's exclusive section on clangd (a speculative edit of a
// C source, which clangd settles by building the whole unit: seconds on a small project, minutes on
// the sqlite amalgamation) must not hold an editor's hover in another file. Reads of one document
// whose tree the section did not change go beside it (packages/broker/src/besideLease.ts);
// everything else still waits for the release.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hover } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri, type BrokerAcquireResult } from '@agent-lsp/protocol';
import { fixtureRoot } from '../helpers/brokers.js';
import { onPath } from '../helpers/onPath.js';
import { waitUntil } from '../helpers/processes.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

/** How long a request that must wait for the release is watched before the release (it must still be unanswered). */
const WATCHED_MS = 1_500;

const clangd = onPath('clangd');
if (!clangd) console.warn('clangd is not installed: the reads-beside-a-lease test did not run (apt-get install clangd)');

/** Whether `p` settled within `ms`. */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((r) => setTimeout(r, ms));
  return done;
}

describe.skipIf(!clangd)(clangd ? "reads beside another client's exclusive section (clangd)" : 'reads beside a lease (clangd NOT INSTALLED — did not run)', () => {
  let root: string;
  let broker: TestBroker;
  const clients: RawClient[] = [];
  const file = (name: string) => join(root, 'c-basic', name);

  beforeAll(async () => {
    root = fixtureRoot('c-basic');
    broker = await startTestBroker(root, 'c');
  }, 120_000);
  afterAll(async () => {
    for (const c of clients) c.close();
    await broker?.stop();
  });

  it("answers another file's hover while a section holds a changed source, and waits for the release when the section changed what that file includes or the request reads the index", async () => {
    const [editor, agent] = [await rawClient(broker.info.socket, { canPull: false }), await rawClient(broker.info.socket, { canPull: false })];
    clients.push(editor, agent);
    const main = pathToUri(file('main.c'));
    const source = pathToUri(file('point.c'));
    const header = pathToUri(file('point.h'));
    await editor.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: main, languageId: 'c', version: 1, text: readFileSync(file('main.c'), 'utf8') } });
    await agent.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: source, languageId: 'c', version: 1, text: readFileSync(file('point.c'), 'utf8') } });
    await waitUntil(() => editor.pushes.some((p) => p.uri === main), 60_000, "clangd's first push for main.c");
    // `manhattan` in main.c's printf line.
    const at = { textDocument: { uri: main }, position: { line: 5, character: 21 } };
    const hover = () => editor.rpc.sendRequest<Hover | null>('textDocument/hover', at);
    // The agent's messages before this request have reached the broker (each client's go in order).
    const agentSynced = (uri: string) => agent.rpc.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    expect(JSON.stringify((await hover())?.contents)).toContain('manhattan');

    // The agent's section changes point.c, which main.c does not include: the hover goes beside it.
    let lease = await agent.rpc.sendRequest<BrokerAcquireResult>('$/agentLsp/acquire', { leaseMs: 60_000 });
    await agent.rpc.sendNotification('textDocument/didChange', { textDocument: { uri: source, version: 2 }, contentChanges: [{ text: `${readFileSync(file('point.c'), 'utf8')}\nint speculative_only;\n` }] });
    await agentSynced(source);
    const beside = hover();
    const answeredInSection = await settlesWithin(beside, 20_000);
    // A request that reads the index (which now holds the section's point.c) waits for the release.
    const references = editor.rpc.sendRequest('textDocument/references', { ...at, context: { includeDeclaration: true } });
    const referencesInSection = await settlesWithin(references, WATCHED_MS);
    await agent.rpc.sendRequest('$/agentLsp/release', { leaseId: lease.leaseId });
    expect(answeredInSection, 'the hover of a file the section did not touch, answered while the section was held').toBe(true);
    expect(JSON.stringify((await beside)?.contents)).toContain('manhattan');
    expect(referencesInSection, 'find references, answered while the section held a changed source').toBe(false);
    expect(await references).not.toBeNull();

    // The section changes point.h, which main.c includes: main.c's hover waits for the release.
    lease = await agent.rpc.sendRequest<BrokerAcquireResult>('$/agentLsp/acquire', { leaseMs: 60_000 });
    await agent.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: header, languageId: 'c', version: 1, text: readFileSync(file('point.h'), 'utf8') } });
    await agent.rpc.sendNotification('textDocument/didChange', { textDocument: { uri: header, version: 2 }, contentChanges: [{ text: readFileSync(file('point.h'), 'utf8').replace('int manhattan', 'long manhattan') }] });
    await agentSynced(header);
    const held = hover();
    const heldAnsweredInSection = await settlesWithin(held, WATCHED_MS);
    await agent.rpc.sendRequest('$/agentLsp/release', { leaseId: lease.leaseId });
    expect(heldAnsweredInSection, "the hover of a file including the section's header, answered while the section was held").toBe(false);
    expect(JSON.stringify((await held)?.contents)).toContain('manhattan');
  }, 120_000);
});
