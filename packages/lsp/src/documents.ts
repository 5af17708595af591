import type {
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
} from 'vscode-languageserver-protocol';

export interface OpenDocument {
  uri: string;
  languageId: string;
  version: number;
  text: string;
  /** When the server was last sent this text (ms since epoch). */
  syncedAt: number;
  /** Opened by agent-lsp for its own purposes (loading a project), not by the agent. */
  internal: boolean;
}

/** The notifications a document store sends; the connection provides them. */
export interface DocumentNotifier {
  didOpen(params: DidOpenTextDocumentParams): void;
  didChange(params: DidChangeTextDocumentParams): void;
  didClose(params: DidCloseTextDocumentParams): void;
}

/**
 * The text the server holds for each open document and its version. Every change goes through
 * here, so versions are strictly increasing per URI and the store always knows what the server
 * sees (diagnostics are matched against it; speculative edits restore to it).
 */
export class DocumentStore {
  private readonly docs = new Map<string, OpenDocument>();
  /** Versions are never reused for a URI, not even after a close: a stale push cannot match. */
  private readonly lastVersion = new Map<string, number>();

  constructor(private readonly notifier: DocumentNotifier) {}

  get(uri: string): OpenDocument | undefined {
    return this.docs.get(uri);
  }

  /** The documents the agent has open (internal ones only when asked). */
  uris(options: { includeInternal?: boolean } = {}): string[] {
    return [...this.docs.values()].filter((d) => options.includeInternal === true || !d.internal).map((d) => d.uri);
  }

  /**
   * Makes the server hold `text` for `uri`: opens it, or sends a full change when the text differs
   * from what the server has. Returns the document as the server now sees it.
   */
  sync(uri: string, languageId: string, text: string, options: { internal?: boolean } = {}): OpenDocument {
    const internal = options.internal === true;
    const doc = this.docs.get(uri);
    if (doc && !internal) doc.internal = false;
    if (!doc) {
      const version = (this.lastVersion.get(uri) ?? 0) + 1;
      const opened: OpenDocument = { uri, languageId, version, text, syncedAt: Date.now(), internal };
      this.docs.set(uri, opened);
      this.lastVersion.set(uri, version);
      this.notifier.didOpen({ textDocument: { uri, languageId, version, text } });
      return opened;
    }
    if (doc.text !== text) {
      doc.version += 1;
      this.lastVersion.set(uri, doc.version);
      doc.text = text;
      doc.syncedAt = Date.now();
      this.notifier.didChange({ textDocument: { uri, version: doc.version }, contentChanges: [{ text }] });
    }
    return doc;
  }

  close(uri: string): boolean {
    if (!this.docs.delete(uri)) return false;
    this.notifier.didClose({ textDocument: { uri } });
    return true;
  }

  /** Forgets every document without notifying (the server is gone). */
  clear(): void {
    this.docs.clear();
  }
}
