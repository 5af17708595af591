import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { attachReadinessStrategy, createLinkedTransport, createLogger, LspConnection, type ServerDefinition } from '@agent-lsp/lsp';
import type { BrokerClient } from './brokerClient.js';
import { DiagnosticsBridge } from './diagnosticsBridge.js';
import { LeasedVersions } from './leasedVersions.js';
import { SharedDocuments } from './sharedDocuments.js';

const logger = createLogger({ level: 'error', sink: () => undefined });
const server: ServerDefinition = {
  id: 'fake',
  displayName: 'fake-server',
  languageIds: ['fake'],
  extensions: { '.fake': 'fake' },
  rootMarkers: [],
  readiness: 'canary',
  installHint: 'a unit-test peer',
  resolve: () => ({ command: [], source: 'config', settings: {}, profileFingerprint: 'fake', details: {} }),
};
const URI = 'file:///w/a.fake';
const diag = (message: string): Diagnostic => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message });

/** A client as the bridge sees it: what was pushed to it. */
function client(id: number, canPull: boolean) {
  const pushed: PublishDiagnosticsParams[] = [];
  const c = { id, canPull, notify: (_m: string, p: PublishDiagnosticsParams) => pushed.push(p), request: () => Promise.resolve(null) };
  return { session: c as unknown as BrokerClient, pushed };
}

/** A server over an in-memory wire that answers pulls with `answer` (a function of the text it holds). */
async function pullServer(answer: (text: string) => Promise<Diagnostic[]> | Diagnostic[]) {
  const link = createLinkedTransport();
  const texts = new Map<string, string>();
  link.peer.onRequest('initialize', () => ({ capabilities: { textDocumentSync: 1, diagnosticProvider: { interFileDependencies: false, workspaceDiagnostics: false } } }));
  link.peer.onRequest('shutdown', () => null);
  link.peer.onNotification('textDocument/didOpen', (p: { textDocument: { uri: string; text: string } }) => {
    texts.set(p.textDocument.uri, p.textDocument.text);
  });
  link.peer.onNotification('textDocument/didChange', (p: { textDocument: { uri: string }; contentChanges: { text: string }[] }) => {
    texts.set(p.textDocument.uri, p.contentChanges.at(-1)?.text ?? '');
  });
  link.peer.onRequest('textDocument/diagnostic', async (p: { textDocument: { uri: string } }) => ({ kind: 'full', items: await answer(texts.get(p.textDocument.uri) ?? '') }));
  link.peer.listen();
  const resolved = server.resolve('/') as NonNullable<ReturnType<ServerDefinition['resolve']>>;
  return LspConnection.start({ transport: link.transport, server, resolved, rootDir: '/w', workspaceFolders: ['/w'], logger, attachReadiness: attachReadinessStrategy });
}

describe('DiagnosticsBridge', () => {
  const conns: LspConnection[] = [];
  afterEach(async () => {
    for (const c of conns.splice(0)) await c.shutdown();
  });

  async function setup(answer: (text: string) => Promise<Diagnostic[]> | Diagnostic[], visible?: (c: BrokerClient, uri: string) => boolean) {
    const conn = await pullServer(answer);
    conns.push(conn);
    const docs = new SharedDocuments(() => conn.documents);
    const a = client(1, false);
    const b = client(2, false);
    const puller = client(3, true);
    const leased = new LeasedVersions();
    const bridge = new DiagnosticsBridge(docs, () => [a.session, b.session, puller.session], () => conn, logger, visible, (store, uri, version) => leased.has(store, uri, version));
    return { conn, docs, a, b, puller, bridge, leased };
  }

  it("drops a push stamped with a version a lease gave the server once that text is gone, for every client", async () => {
    const { conn, docs, a, b, bridge, leased } = await setup(() => []);
    docs.didOpen(1, { textDocument: { uri: URI, languageId: 'fake', version: 1, text: 'disk' } });
    docs.didOpen(2, { textDocument: { uri: URI, languageId: 'fake', version: 1, text: 'disk' } });
    const before = conn.documents.get(URI)?.version as number;
    const following = leased.follow(conn.documents);
    docs.didChange(1, { textDocument: { uri: URI, version: 2 }, contentChanges: [{ text: 'speculative' }] });
    const inLease = conn.documents.get(URI)?.version as number;
    following.dispose();
    // The lease's end gives the server the disk's text back.
    docs.didChange(1, { textDocument: { uri: URI, version: 3 }, contentChanges: [{ text: 'disk' }] });
    bridge.forwardPush({ uri: URI, version: inLease, diagnostics: [diag('only in the lease')] });
    expect([...a.pushed, ...b.pushed]).toEqual([]);
    // A push for the text the server holds, and a stale one of a text no lease gave, go on as before.
    bridge.forwardPush({ uri: URI, version: conn.documents.get(URI)?.version, diagnostics: [] });
    bridge.forwardPush({ uri: URI, version: before, diagnostics: [diag('stale')] });
    expect(b.pushed).toEqual([{ uri: URI, version: 1, diagnostics: [] }, { uri: URI, diagnostics: [diag('stale')] }]);
    bridge.dispose();
  });

  it('stamps a push with each client\'s own version only when it describes the text that client sent last', async () => {
    const { conn, docs, a, b, puller, bridge } = await setup(() => []);
    docs.didOpen(1, { textDocument: { uri: URI, languageId: 'fake', version: 5, text: 'same' } });
    docs.didOpen(2, { textDocument: { uri: URI, languageId: 'fake', version: 9, text: 'other' } });
    docs.didOpen(3, { textDocument: { uri: URI, languageId: 'fake', version: 1, text: 'same' } });
    // The server holds client 3's text (sent last); a push for its version describes "same".
    const version = conn.documents.get(URI)?.version;
    bridge.forwardPush({ uri: URI, version, diagnostics: [diag('x')] });
    expect(a.pushed).toEqual([{ uri: URI, version: 5, diagnostics: [diag('x')] }]);
    expect(b.pushed).toEqual([{ uri: URI, diagnostics: [diag('x')] }]);
    expect(puller.pushed).toEqual([{ uri: URI, version: 1, diagnostics: [diag('x')] }]);
    // A push without a version (or for an older one) carries no version for anyone.
    bridge.forwardPush({ uri: URI, diagnostics: [] });
    expect(a.pushed.at(-1)).toEqual({ uri: URI, diagnostics: [] });
    bridge.dispose();
  });

  it('keeps a leased document\'s diagnostics from the clients that may not see it', async () => {
    const { docs, a, b, bridge } = await setup(() => [], (c) => c.id !== 2);
    docs.didOpen(1, { textDocument: { uri: URI, languageId: 'fake', version: 1, text: 't' } });
    bridge.forwardPush({ uri: URI, diagnostics: [diag('secret')] });
    expect(a.pushed).toHaveLength(1);
    expect(b.pushed).toEqual([]);
    bridge.dispose();
  });

  it('pulls for push-only holders after a change and pushes the result to them only', async () => {
    const { docs, a, b, puller, bridge } = await setup((text) => [diag(`about ${text}`)]);
    docs.didOpen(1, { textDocument: { uri: URI, languageId: 'fake', version: 3, text: 'v1' } });
    bridge.changed(URI);
    await expect.poll(() => a.pushed.length, { timeout: 5000 }).toBe(1);
    expect(a.pushed[0]).toEqual({ uri: URI, version: 3, diagnostics: [diag('about v1')] });
    // b holds nothing, the puller pulls for itself.
    expect(b.pushed).toEqual([]);
    expect(puller.pushed).toEqual([]);
    bridge.dispose();
  });

  it('drops a pull answer for text that moved on meanwhile, and pushes the newer one', async () => {
    const answers: ((d: Diagnostic[]) => void)[] = [];
    const { docs, a, bridge } = await setup((text) => new Promise((resolve) => answers.push(() => resolve([diag(`about ${text}`)]))));
    docs.didOpen(1, { textDocument: { uri: URI, languageId: 'fake', version: 1, text: 'old' } });
    bridge.changed(URI);
    await expect.poll(() => answers.length, { timeout: 5000 }).toBe(1);
    docs.didChange(1, { textDocument: { uri: URI, version: 2 }, contentChanges: [{ text: 'new' }] });
    bridge.changed(URI);
    answers[0]?.([]);
    await expect.poll(() => answers.length, { timeout: 5000 }).toBe(2);
    answers[1]?.([]);
    await expect.poll(() => a.pushed.length, { timeout: 5000 }).toBe(1);
    expect(a.pushed).toEqual([{ uri: URI, version: 2, diagnostics: [diag('about new')] }]);
    bridge.dispose();
  });
});
