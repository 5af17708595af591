import type {
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
} from 'vscode-languageserver-protocol';
import { applyTextEdits } from '@agent-lsp/protocol';
import type { DocumentStore } from '@agent-lsp/lsp';

interface ClientDocument {
  languageId: string;
  version: number;
  text: string;
}

/**
 * Documents opened by several clients of one broker: each client's own text and version are kept;
 * the server holds one copy (the last text any client sent) and is closed only when no client
 * holds the document any more.
 */
export class SharedDocuments {
  private readonly byClient = new Map<number, Map<string, ClientDocument>>();

  constructor(private readonly server: () => DocumentStore | undefined) {}

  didOpen(client: number, p: DidOpenTextDocumentParams): void {
    const { uri, languageId, version, text } = p.textDocument;
    this.docsOf(client).set(uri, { languageId, version, text });
    this.server()?.sync(uri, languageId, text);
  }

  didChange(client: number, p: DidChangeTextDocumentParams): void {
    const { uri, version } = p.textDocument;
    const doc = this.docsOf(client).get(uri);
    if (!doc) return; // a change for a document this client never opened: nothing to base it on
    let text = doc.text;
    for (const change of p.contentChanges) {
      text = 'range' in change ? applyTextEdits(text, [{ range: change.range, newText: change.text }]) : change.text;
    }
    doc.text = text;
    doc.version = version;
    this.server()?.sync(uri, doc.languageId, text);
  }

  didClose(client: number, p: DidCloseTextDocumentParams): void {
    this.release(client, p.textDocument.uri);
  }

  /** Closes everything a client held (it disconnected). */
  dropClient(client: number): void {
    for (const uri of [...this.docsOf(client).keys()]) this.release(client, uri);
    this.byClient.delete(client);
  }

  /** Gives a (re)started server every document some client holds. */
  resyncAll(): void {
    const store = this.server();
    if (!store) return;
    for (const docs of this.byClient.values()) for (const [uri, d] of docs) store.sync(uri, d.languageId, d.text);
  }

  get clientCount(): number {
    return this.byClient.size;
  }

  private release(client: number, uri: string): void {
    this.docsOf(client).delete(uri);
    const other = [...this.byClient.values()].map((docs) => docs.get(uri)).find((d) => d !== undefined);
    const store = this.server();
    if (!store) return;
    if (other) store.sync(uri, other.languageId, other.text);
    else store.close(uri);
  }

  private docsOf(client: number): Map<string, ClientDocument> {
    let docs = this.byClient.get(client);
    if (!docs) {
      docs = new Map();
      this.byClient.set(client, docs);
    }
    return docs;
  }
}
