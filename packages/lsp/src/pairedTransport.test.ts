import { afterEach, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { createLinkedTransport, type LinkedTransport } from './linkedTransport.js';
import { createLogger } from './logger.js';
import { PairedDiagnostics } from './pairedAnswers.js';
import { pairServers } from './pairedTransport.js';
import type { CompanionServer } from './serverProfile.js';

/**
 * The pairing's protocol logic over in-memory wires (the real pair, vue-language-server with vtsls,
 * runs in test/e2e/vuePair.test.ts and the language matrix): the halves here are scripted peers.
 */

const COMPANION: CompanionServer = { command: [], languageIds: ['vue'], answersFirst: ['textDocument/documentSymbol'], relay: 'tsserver' };

let open: { client: MessageConnection; main: LinkedTransport; companion: LinkedTransport }[] = [];
afterEach(() => {
  for (const o of open) {
    o.client.dispose();
    o.main.disconnect();
    o.companion.disconnect();
  }
  open = [];
});

function pair() {
  const main = createLinkedTransport();
  const companion = createLinkedTransport();
  const transport = pairServers(main.transport, companion.transport, COMPANION, createLogger({ level: 'error' }));
  const client = createMessageConnection(new StreamMessageReader(transport.input), new StreamMessageWriter(transport.output));
  open.push({ client, main, companion });
  return { client, main: main.peer, companion: companion.peer };
}

const listen = (...cs: MessageConnection[]) => cs.forEach((c) => c.listen());

describe('pairServers', () => {
  it('relays the companion\'s tsserver/request to the main server and answers it as tsserver/response [[id, body]]', async () => {
    const { client, main, companion } = pair();
    const asked: unknown[] = [];
    main.onRequest('workspace/executeCommand', (params: unknown) => {
      asked.push(params);
      return { body: { configFileName: '/p/tsconfig.json' } };
    });
    // vue-language-server's own handler: `([id, res]) => ...` on the one array parameter.
    const answered = new Promise<unknown[]>((resolve) => companion.onNotification('tsserver/response', (pair: unknown[]) => resolve(pair)));
    listen(client, main, companion);
    // vue-language-server sends sendNotification('tsserver/request', [id, command, args]): one array parameter.
    await companion.sendNotification('tsserver/request', [7, '_vue:projectInfo', { file: '/p/App.vue' }]);
    expect(await answered).toEqual([7, { configFileName: '/p/tsconfig.json' }]);
    expect(asked).toEqual([{ command: 'typescript.tsserverRequest', arguments: ['_vue:projectInfo', { file: '/p/App.vue' }] }]);
  });

  it('asks the companion first for what it answers first on its documents, the main server only for the others', async () => {
    const { client, main, companion } = pair();
    const seen: string[] = [];
    main.onRequest('textDocument/documentSymbol', () => (seen.push('main'), [{ name: 'fromMain' }]));
    companion.onRequest('textDocument/documentSymbol', () => (seen.push('companion'), [{ name: 'template' }]));
    const companionOpened: string[] = [];
    companion.onNotification('textDocument/didOpen', (p: { textDocument: { uri: string } }) => void companionOpened.push(p.textDocument.uri));
    listen(client, main, companion);
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri: 'file:///p/App.vue', languageId: 'vue', version: 1, text: '' } });
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri: 'file:///p/a.ts', languageId: 'typescript', version: 1, text: '' } });
    expect(await client.sendRequest('textDocument/documentSymbol', { textDocument: { uri: 'file:///p/App.vue' } })).toEqual([{ name: 'template' }]);
    expect(await client.sendRequest('textDocument/documentSymbol', { textDocument: { uri: 'file:///p/a.ts' } })).toEqual([{ name: 'fromMain' }]);
    expect(seen).toEqual(['companion', 'main']);
    expect(companionOpened).toEqual(['file:///p/App.vue']);
  });

  it('asks the other half when the first has nothing', async () => {
    const { client, main, companion } = pair();
    main.onRequest('textDocument/hover', () => null);
    companion.onRequest('textDocument/hover', () => ({ contents: '<p> element' }));
    listen(client, main, companion);
    await client.sendNotification('textDocument/didOpen', { textDocument: { uri: 'file:///p/App.vue', languageId: 'vue', version: 1, text: '' } });
    expect(await client.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///p/App.vue' }, position: { line: 0, character: 0 } })).toEqual({ contents: '<p> element' });
  });

  it("passes the companion's requests to the client under ids of its own and its answers back", async () => {
    const { client, main, companion } = pair();
    client.onRequest('workspace/configuration', () => [{ answered: 'by the client' }]);
    listen(client, main, companion);
    expect(await companion.sendRequest('workspace/configuration', { items: [{ section: 'vue' }] })).toEqual([{ answered: 'by the client' }]);
  });

  it('merges initialize: the companion named first, its providers for what it answers first, and pulls answered by the pair', async () => {
    const { client, main, companion } = pair();
    main.onRequest('initialize', () => ({ capabilities: { hoverProvider: true }, serverInfo: { name: 'vtsls', version: '0.3.0' } }));
    companion.onRequest('initialize', () => ({ capabilities: { documentSymbolProvider: true, diagnosticProvider: { interFileDependencies: false } }, serverInfo: { name: '@vue/language-server', version: '3.3.11' } }));
    listen(client, main, companion);
    const result = await client.sendRequest('initialize', { capabilities: {} });
    expect(result).toEqual({
      capabilities: { hoverProvider: true, documentSymbolProvider: true, diagnosticProvider: { interFileDependencies: true, workspaceDiagnostics: false } },
      serverInfo: { name: '@vue/language-server', version: '3.3.11 with vtsls 0.3.0' },
    });
  });
});

describe('PairedDiagnostics', () => {
  it("publishes both halves' latest for a document, versioned only when every half stamped that version", () => {
    const d = new PairedDiagnostics();
    expect(d.publish('companion', { uri: 'u', version: 3, diagnostics: ['template'] })).toEqual({ uri: 'u', version: 3, diagnostics: ['template'] });
    expect(d.publish('main', { uri: 'u', diagnostics: ['script'] })).toEqual({ uri: 'u', diagnostics: ['script', 'template'] });
    expect(d.publish('main', { uri: 'u', version: 3, diagnostics: [] })).toEqual({ uri: 'u', version: 3, diagnostics: ['template'] });
  });
});
