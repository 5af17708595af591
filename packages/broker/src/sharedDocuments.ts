import type {
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
} from 'vscode-languageserver-protocol';
import { applyTextEdits } from '@agent-lsp/protocol';
import type { DocumentStore } from '@agent-lsp/lsp';

export interface ClientDocument {
  languageId: string;
  /** The client's own version of the document. */
  version: number;
  text: string;
}

/**
 * Documents opened by several clients of one broker, reference-counted per URI. Each client's own
 * text and version are kept; the server holds one copy under the broker's own version counter (its
 * DocumentStore): the text any client sent last. A second client's differing didOpen becomes a full
 * didChange; the server's copy is closed only when no client holds the document any more.
 */
export class SharedDocuments {
  private readonly byClient = new Map<number, Map<string, ClientDocument>>();

  constructor(
    private readonly server: () => DocumentStore | undefined,
    /** Called after the server was given new text for a URI (or it was closed). */
    private readonly onSynced: (uri: string) => void = () => undefined,
  ) {}

  didOpen(client: number, p: DidOpenTextDocumentParams): void {
    const { uri, languageId, version, text } = p.textDocument;
    this.docsOf(client).set(uri, { languageId, version, text });
    this.push(uri, languageId, text);
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
    this.push(uri, doc.languageId, text);
  }

  didClose(client: number, p: DidCloseTextDocumentParams): void {
    this.release(client, p.textDocument.uri);
  }

  /** Closes everything a client held (it disconnected). */
  dropClient(client: number): void {
    for (const uri of [...this.docsOf(client).keys()]) this.release(client, uri);
    this.byClient.delete(client);
  }

  /** A client's own copy of a document, if it holds one. */
  clientDocument(client: number, uri: string): ClientDocument | undefined {
    return this.byClient.get(client)?.get(uri);
  }

  /** Puts a client's own copy back (lease restore) without telling the server; undefined removes it. */
  setClientDocument(client: number, uri: string, doc: ClientDocument | undefined): void {
    if (doc) this.docsOf(client).set(uri, { ...doc });
    else this.docsOf(client).delete(uri);
  }

  /** The documents a client holds. */
  urisOf(client: number): string[] {
    return [...(this.byClient.get(client)?.keys() ?? [])];
  }

  /** The clients that hold a document. */
  holders(uri: string): number[] {
    return [...this.byClient].filter(([, docs]) => docs.has(uri)).map(([id]) => id);
  }

  /** Gives a (re)started server every document some client holds. */
  resyncAll(): void {
    for (const docs of this.byClient.values()) for (const [uri, d] of docs) this.push(uri, d.languageId, d.text);
  }

  private push(uri: string, languageId: string, text: string): void {
    const store = this.server();
    if (!store) return;
    store.sync(uri, languageId, text);
    this.onSynced(uri);
  }

  private release(client: number, uri: string): void {
    this.docsOf(client).delete(uri);
    const other = [...this.byClient.values()].map((docs) => docs.get(uri)).find((d) => d !== undefined);
    if (other) this.push(uri, other.languageId, other.text);
    else if (this.server()?.close(uri)) this.onSynced(uri);
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
