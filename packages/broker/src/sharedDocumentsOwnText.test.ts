import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '@agent-lsp/lsp';
import { SharedDocuments } from './sharedDocuments.js';

/** Two clients holding one document with different texts (an editor's unsaved buffer and an agent's disk text). */
describe('SharedDocuments: each client answered on its own text', () => {
  const URI = 'file:///work/a.py';
  const AGENT = 1;
  const EDITOR = 2;
  let sent: string[];
  let store: DocumentStore;
  let docs: SharedDocuments;
  let synced: string[];

  beforeEach(() => {
    sent = [];
    synced = [];
    store = new DocumentStore({
      didOpen: (p) => void sent.push(`open ${p.textDocument.text}`),
      didChange: (p) => void sent.push(`change ${(p.contentChanges[0] as { text: string }).text}`),
      didClose: () => void sent.push('close'),
    });
    docs = new SharedDocuments(() => store, (uri) => void synced.push(uri));
  });
  afterEach(() => docs.dispose());

  function open(client: number, text: string): void {
    docs.didOpen(client, { textDocument: { uri: URI, languageId: 'python', version: 1, text } });
  }

  it('gives the server the asking client\'s text when it holds another, and nothing when it already has it', () => {
    open(AGENT, 'a = 1\n');
    open(EDITOR, 'a = "unsaved"\n');
    expect(store.get(URI)?.text).toBe('a = "unsaved"\n');
    expect(docs.useClientText(AGENT, URI)).toBe(true);
    expect(store.get(URI)?.text).toBe('a = 1\n');
    expect(sent.at(-1)).toBe('change a = 1\n');
    const before = sent.length;
    expect(docs.useClientText(AGENT, URI)).toBe(false);
    expect(sent.length).toBe(before);
    expect(synced.at(-1)).toBe(URI);
  });

  it('does nothing for a client that does not hold the document', () => {
    open(EDITOR, 'a = "unsaved"\n');
    expect(docs.useClientText(AGENT, URI)).toBe(false);
    expect(store.get(URI)?.text).toBe('a = "unsaved"\n');
  });

  it('counts the other clients holding a different text', () => {
    open(AGENT, 'a = 1\n');
    expect(docs.otherTexts(AGENT, URI)).toBe(0);
    open(EDITOR, 'a = "unsaved"\n');
    expect(docs.otherTexts(AGENT, URI)).toBe(1);
    expect(docs.otherTexts(EDITOR, URI)).toBe(1);
    docs.didChange(EDITOR, { textDocument: { uri: URI, version: 2 }, contentChanges: [{ text: 'a = 1\n' }] });
    expect(docs.otherTexts(AGENT, URI)).toBe(0);
    docs.dropClient(EDITOR);
    expect(docs.otherTexts(AGENT, URI)).toBe(0);
  });
});
