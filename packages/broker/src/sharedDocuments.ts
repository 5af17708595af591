import type {
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
} from 'vscode-languageserver-protocol';
import { readFileSync } from 'node:fs';
import { applyTextEdits, uriToPath } from '@agent-lsp/protocol';
import type { DocumentStore } from '@agent-lsp/lsp';

const LINGER_MS = 5 * 60_000;

function diskText(uri: string): string | undefined {
  const path = uriToPath(uri);
  try {
    return path ? readFileSync(path, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

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
  /** Documents no client holds any more, kept open in the server for a while (see release). */
  private readonly lingering = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly server: () => DocumentStore | undefined,
    /** Called after the server was given new text for a URI (or it was closed). */
    private readonly onSynced: (uri: string) => void = () => undefined,
  ) {}

  didOpen(client: number, p: DidOpenTextDocumentParams): void {
    const { uri, languageId, version, text } = p.textDocument;
    this.stopLingering(uri);
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

  /**
   * The last holder let go. When the server's text is the disk's, the document stays open for
   * LINGER_MS: the next agent that opens it (a new front, minutes later) finds the server's work on
   * it done instead of starting over. Unsaved text is closed at once, so nobody else sees it.
   */
  private release(client: number, uri: string): void {
    this.docsOf(client).delete(uri);
    const other = [...this.byClient.values()].map((docs) => docs.get(uri)).find((d) => d !== undefined);
    if (other) {
      this.push(uri, other.languageId, other.text);
      return;
    }
    const store = this.server();
    const held = store?.get(uri);
    if (held && held.text === diskText(uri)) {
      this.stopLingering(uri);
      this.lingering.set(
        uri,
        setTimeout(() => {
          this.lingering.delete(uri);
          if (this.holders(uri).length === 0 && this.server()?.close(uri)) this.onSynced(uri);
        }, LINGER_MS),
      );
      return;
    }
    if (store?.close(uri)) this.onSynced(uri);
  }

  /** The file changed on disk: a lingering copy is stale, close it now. */
  diskChanged(uri: string): void {
    if (!this.lingering.has(uri)) return;
    this.stopLingering(uri);
    if (this.holders(uri).length === 0 && this.server()?.close(uri)) this.onSynced(uri);
  }

  private stopLingering(uri: string): void {
    clearTimeout(this.lingering.get(uri));
    this.lingering.delete(uri);
  }

  dispose(): void {
    for (const t of this.lingering.values()) clearTimeout(t);
    this.lingering.clear();
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
