import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentDiagnosticReport, Hover } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { fixtureRoot } from '../helpers/brokers.js';
import { waitUntil } from '../helpers/processes.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

function hoverText(h: Hover | null): string {
  const c = h?.contents;
  return typeof c === 'object' && c !== null && 'value' in c ? c.value : JSON.stringify(c);
}

describe('many plain LSP clients on one pyright broker', () => {
  let root: string;
  let broker: TestBroker;
  const clients: RawClient[] = [];
  const client = async (canPull: boolean) => {
    const c = await rawClient(broker.info.socket, { canPull });
    clients.push(c);
    return c;
  };
  const file = (name: string) => join(root, 'python-basic', 'app', name);

  beforeAll(async () => {
    root = fixtureRoot('python-basic');
    broker = await startTestBroker(root, 'python');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await broker.stop();
  });

  it('answers concurrent requests with the same ids each to its own client', async () => {
    const [a, b] = [await client(true), await client(true)];
    const geometry = pathToUri(file('geometry.py'));
    const text = readFileSync(file('geometry.py'), 'utf8');
    await a.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: geometry, languageId: 'python', version: 1, text } });
    await b.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: geometry, languageId: 'python', version: 1, text } });
    // Both connections number their requests alike: these two carry the same JSON-RPC id.
    const [ha, hb] = await Promise.all([
      a.rpc.sendRequest<Hover>('textDocument/hover', { textDocument: { uri: geometry }, position: { line: 11, character: 5 } }),
      b.rpc.sendRequest<Hover>('textDocument/hover', { textDocument: { uri: geometry }, position: { line: 6, character: 7 } }),
    ]);
    expect(hoverText(ha)).toContain('def distance');
    expect(hoverText(hb)).toContain('class Point');
    a.close();
    b.close();
  });

  it('stamps pushed diagnostics with each client\'s own version, also after another client closes', async () => {
    const [a, b] = [await client(false), await client(false)];
    const uri = pathToUri(file('broken.py'));
    const text = readFileSync(file('broken.py'), 'utf8');
    await a.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 7, text } });
    await b.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
    await waitUntil(() => a.pushes.some((p) => p.uri === uri && p.version === 7) && b.pushes.some((p) => p.uri === uri && p.version === 1), 60_000, 'versioned pushes');
    expect(a.pushes.filter((p) => p.uri === uri).at(-1)?.diagnostics).toHaveLength(2);
    expect(b.pushes.some((p) => p.uri === uri && p.version === 7)).toBe(false);

    // a closes; b keeps the document open and fixes one error: b still gets diagnostics.
    await a.rpc.sendNotification('textDocument/didClose', { textDocument: { uri } });
    const fixed = text.replace('count: int = "three"', 'count: int = 3');
    await b.rpc.sendNotification('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: fixed }] });
    await waitUntil(() => b.pushes.some((p) => p.uri === uri && p.version === 2), 60_000, 'a push for version 2');
    expect(b.pushes.find((p) => p.uri === uri && p.version === 2)?.diagnostics).toHaveLength(1);
    a.close();
    b.close();
  });

  it('pushes to a client that cannot pull while another pulls', async () => {
    const [pusher, puller] = [await client(false), await client(true)];
    const uri = pathToUri(file('routes.py'));
    const text = readFileSync(file('routes.py'), 'utf8').replace('return total', 'return "total"');
    await pusher.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 3, text } });
    await puller.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 3, text } });
    const pulled = await puller.rpc.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } });
    expect(pulled.kind === 'full' ? pulled.items.length : -1).toBe(1);
    await waitUntil(() => pusher.pushes.some((p) => p.uri === uri && p.version === 3), 60_000, 'a bridged push');
    expect(pusher.pushes.find((p) => p.uri === uri && p.version === 3)?.diagnostics).toHaveLength(1);
  });

  it('sends a client\'s work-done progress to that client only, under its own token', async () => {
    const [owner, other] = [await client(true), await client(true)];
    const uri = pathToUri(file('geometry.py'));
    await owner.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text: readFileSync(file('geometry.py'), 'utf8') } });
    // Only the owner's request carries the token (pyright then reports at least its end).
    await owner.rpc.sendRequest('textDocument/references', { textDocument: { uri }, position: { line: 11, character: 5 }, context: { includeDeclaration: true }, workDoneToken: 'tok-1' });
    const progressOf = (c: RawClient) => c.notifications.filter((n) => n.method === '$/progress').map((n) => (n.params as { token: unknown }).token);
    await waitUntil(() => progressOf(owner).includes('tok-1'), 10_000, 'progress for tok-1');
    expect(progressOf(owner).filter((t) => typeof t === 'string' && t.startsWith('agentLsp/'))).toEqual([]);
    expect(progressOf(other)).not.toContain('tok-1');
    owner.close();
    other.close();
  });

  it('replays dynamic registrations to a client that connects later', async () => {
    const late = await client(true);
    await waitUntil(() => late.registrations.length > 0, 10_000, 'registrations');
    expect(late.registrations.map((r) => r.method)).toContain('textDocument/diagnostic');
    expect(late.init.capabilities.diagnosticProvider).toBeDefined();
    expect((late.init.capabilities.experimental as { agentLsp?: { ready: boolean } }).agentLsp?.ready).toBe(true);
  });

  it('keeps a document whose text is the disk\'s open for the next client, but not unsaved text', async () => {
    const c = await client(true);
    const stats = async () => (await c.rpc.sendRequest<{ openDocuments: string[] }>('$/agentLsp/stats', null)).openDocuments;
    // A file no other test of this broker opens.
    const reports = pathToUri(file('__init__.py'));
    const text = readFileSync(file('__init__.py'), 'utf8');
    await c.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: reports, languageId: 'python', version: 1, text: `${text}\n# unsaved\n` } });
    await c.rpc.sendNotification('textDocument/didClose', { textDocument: { uri: reports } });
    expect(await stats()).not.toContain(reports);
    await c.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: reports, languageId: 'python', version: 2, text } });
    await c.rpc.sendNotification('textDocument/didClose', { textDocument: { uri: reports } });
    expect(await stats()).toContain(reports);
    c.close();
  });

  // The clients above have disconnected, so geometry.py is open in no client: the server reads the
  // disk once the watcher reports the change (a lingering copy is closed then).
  it('tells the server when a file changes on disk (and not for node_modules)', async () => {
    const puller = await client(true);
    const routes = pathToUri(file('routes.py'));
    const text = readFileSync(file('routes.py'), 'utf8');
    await puller.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: routes, languageId: 'python', version: 1, text } });
    const errorsIn = async () => {
      const r = await puller.rpc.sendRequest<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri: routes } });
      return r.kind === 'full' ? r.items.filter((d) => d.severity === 1).length : -1;
    };
    expect(await errorsIn()).toBe(0);
    // As a git checkout would: geometry.py (not open anywhere) changes on disk; distance() now needs 3 arguments.
    const geometry = file('geometry.py');
    writeFileSync(geometry, readFileSync(geometry, 'utf8').replace('def distance(a: Point, b: Point)', 'def distance(a: Point, b: Point, scale: float)'));
    const nodeModules = join(root, 'node_modules', 'pkg');
    mkdirSync(nodeModules, { recursive: true });
    writeFileSync(join(nodeModules, 'index.py'), 'x = 1\n');
    // Poll by pulling: the server learns of the change only through the broker's watcher.
    const deadline = Date.now() + 60_000;
    let errors = await errorsIn();
    while (errors === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      errors = await errorsIn();
    }
    expect(errors).toBeGreaterThan(0);
    // The server may notice before the broker logs its watcher batch: wait for the line too.
    while (!broker.log().includes('geometry.py') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(broker.log()).toContain('geometry.py');
    expect(broker.log()).not.toMatch(/watched files changed:[^\n]*node_modules/);
  });
});
