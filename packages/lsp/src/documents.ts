import type {
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
} from 'vscode-languageserver-protocol';
import { Emitter } from '@agent-lsp/protocol';
import type { DiskState } from './diskText.js';

export interface OpenDocument {
  uri: string;
  languageId: string;
  version: number;
  text: string;
  /** When the server was last sent this text (ms since epoch). */
  syncedAt: number;
  /** Opened by agent-lsp for its own purposes (loading a project), not by the agent. */
  internal: boolean;
  /**
   * Set while the text is the disk's, as the file was when it was read (freshness checks compare
   * the file with this). Unset for text of someone's own: a speculative overlay, a client's
   * unsaved buffer. Disk synchronisation never overwrites such text.
   */
  disk: DiskState | undefined;
}

/** The notifications a document store sends; the connection provides them. */
export interface DocumentNotifier {
  /** `reopened`: the second half of a reopen, the text the server held a moment ago. */
  didOpen(params: DidOpenTextDocumentParams, reopened?: boolean): void;
  /** `previous`: the text the server held before this change. */
  didChange(params: DidChangeTextDocumentParams, previous: string): void;
  /** `closed`: the document as the server held it until now; `reopening`: it is opened again with that text at once. */
  didClose(params: DidCloseTextDocumentParams, closed: OpenDocument, reopening?: boolean): void;
}

export interface SyncOptions {
  internal?: boolean;
  /** The text is the disk's, read in this state; without it the text is someone's own. */
  disk?: DiskState;
}

/** What the server was just told of a document: opened, given new text, or closed (`doc` as it was). */
export interface DocumentSent {
  kind: 'open' | 'change' | 'close';
  doc: OpenDocument;
}

/** One document as the server held it when a snapshot recorded it; null: it was not open. */
export type SavedDocument = Pick<OpenDocument, 'languageId' | 'text' | 'internal' | 'disk'> | null;

/**
 * What the server held for some documents at one moment. Documents are recorded before they are
 * first changed (`record`), so a section that changes a few documents remembers only those;
 * DocumentStore.restore puts exactly that back.
 */
export class DocumentSnapshot {
  private readonly saved = new Map<string, SavedDocument>();

  constructor(private readonly store: DocumentStore) {}

  /** Remembers `uri` as the server holds it now, unless it is already remembered. */
  record(uri: string): void {
    if (this.saved.has(uri)) return;
    const doc = this.store.get(uri);
    this.saved.set(uri, doc ? { languageId: doc.languageId, text: doc.text, internal: doc.internal, disk: doc.disk } : null);
  }

  has(uri: string): boolean {
    return this.saved.has(uri);
  }

  /** What `uri` was when recorded (null: not open); undefined when it was never recorded. */
  before(uri: string): SavedDocument | undefined {
    return this.saved.get(uri);
  }

  /** The recorded documents, in the order they were recorded. */
  uris(): string[] {
    return [...this.saved.keys()];
  }
}

/**
 * The text the server holds for each open document and its version, and whether that text is
 * the disk's. Every change goes through here, so versions are strictly increasing per URI and the
 * store always knows what the server sees (diagnostics are matched against it; speculative edits
 * and exclusive sections restore to it through snapshot/restore; freshness checks compare it with
 * the disk).
 */
export class DocumentStore {
  private readonly docs = new Map<string, OpenDocument>();
  /** Versions are never reused for a URI, not even after a close: a stale push cannot match. */
  private readonly lastVersion = new Map<string, number>();
  private readonly sent = new Emitter<DocumentSent>();
  /** Fires after each didOpen, didChange and didClose the server was sent. */
  readonly onSent = this.sent.on.bind(this.sent);

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
   * from what the server has. With `disk`, the text is recorded as the disk's; without it, a
   * changed text is someone's own (an unchanged one keeps what was known about it). Returns the
   * document as the server now sees it.
   */
  sync(uri: string, languageId: string, text: string, options: SyncOptions = {}): OpenDocument {
    return this.syncAs(uri, languageId, text, options, false);
  }

  private syncAs(uri: string, languageId: string, text: string, options: SyncOptions, reopened: boolean): OpenDocument {
    const internal = options.internal === true;
    const doc = this.docs.get(uri);
    if (doc && !internal) doc.internal = false;
    if (!doc) {
      const version = (this.lastVersion.get(uri) ?? 0) + 1;
      const opened: OpenDocument = { uri, languageId, version, text, syncedAt: Date.now(), internal, disk: options.disk };
      this.docs.set(uri, opened);
      this.lastVersion.set(uri, version);
      this.notifier.didOpen({ textDocument: { uri, languageId, version, text } }, reopened);
      this.sent.fire({ kind: 'open', doc: opened });
      return opened;
    }
    if (doc.text !== text) {
      const previous = doc.text;
      doc.version += 1;
      this.lastVersion.set(uri, doc.version);
      doc.text = text;
      doc.syncedAt = Date.now();
      doc.disk = options.disk;
      this.notifier.didChange({ textDocument: { uri, version: doc.version }, contentChanges: [{ text }] }, previous);
      this.sent.fire({ kind: 'change', doc });
    } else if (options.disk) {
      doc.disk = options.disk;
    }
    return doc;
  }

  /** Records that the server's text for `uri` is the disk's (read in `state`), if it still is `text`. */
  adoptDisk(uri: string, text: string, state: DiskState): boolean {
    const doc = this.docs.get(uri);
    if (!doc || doc.text !== text) return false;
    doc.disk = state;
    return true;
  }

  close(uri: string): boolean {
    return this.closeAs(uri, false);
  }

  private closeAs(uri: string, reopening: boolean): boolean {
    const doc = this.docs.get(uri);
    if (!doc) return false;
    this.docs.delete(uri);
    // pyrefly stamps the push that clears a closed document with the closed version + 1, a version
    // it never read: the next open skips that one, so the clear cannot pass for the new text's.
    this.lastVersion.set(uri, doc.version + 1);
    this.notifier.didClose({ textDocument: { uri } }, doc, reopening);
    this.sent.fire({ kind: 'close', doc });
    return true;
  }

  /**
   * Closes `uri` and opens it again with the same text, origin and internal flag: the server builds
   * it afresh against what it holds now (clangd builds nothing on its own for an unchanged file).
   * What the other documents see is unchanged, and the notifier is told so.
   */
  reopen(uri: string): boolean {
    const doc = this.docs.get(uri);
    if (!doc) return false;
    this.closeAs(uri, true);
    this.syncAs(uri, doc.languageId, doc.text, { internal: doc.internal, ...(doc.disk ? { disk: doc.disk } : {}) }, true);
    return true;
  }

  /** Starts remembering documents as they are now (`uris` at once, more with `record`). */
  snapshot(uris: Iterable<string> = []): DocumentSnapshot {
    const snapshot = new DocumentSnapshot(this);
    for (const uri of uris) snapshot.record(uri);
    return snapshot;
  }

  /**
   * Puts every document a snapshot recorded back as it was (its text, origin and internal flag),
   * or closes it when it was not open; the latest recorded first. Tries them all, then throws
   * naming the ones that failed. Returns the URIs it went over.
   */
  restore(snapshot: DocumentSnapshot): string[] {
    const failures: string[] = [];
    const uris = snapshot.uris().reverse();
    for (const uri of uris) {
      try {
        const before = snapshot.before(uri);
        if (before) {
          const doc = this.sync(uri, before.languageId, before.text, { internal: before.internal });
          doc.internal = before.internal;
          doc.disk = before.disk;
        } else {
          this.close(uri);
        }
      } catch (err) {
        failures.push(`${uri}: ${(err as Error).message}`);
      }
    }
    if (failures.length) throw new Error(`could not restore the server's buffers: ${failures.join('; ')}`);
    return uris;
  }

  /** Forgets every document without notifying (the server is gone). */
  clear(): void {
    this.docs.clear();
  }
}
