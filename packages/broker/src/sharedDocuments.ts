import type { DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams } from 'vscode-languageserver-protocol';
import { applyTextEdits, uriToPath } from '@agent-lsp/protocol';
import { closeDeletedFiles, mayHaveChangedSync, openCreatedFiles, syncWithDisk, type DocumentStore, type ServerDefinition } from '@agent-lsp/lsp';

const LINGER_MS = 5 * 60_000;
/** Up to this many unheld documents are stat'ed synchronously before a request (see refreshUnheld). */
const SYNC_STAT_MAX = 64;

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
 *
 * Freshness: the server's copy is known to be the disk's when it equals the file (checked after a
 * didOpen and when the last holder lets go). Such copies follow the disk (`diskChanged`, from the
 * watcher, and `refreshUnheld`, before a request reaches the server); a client's own unsaved
 * text is never overwritten by disk.
 */
export class SharedDocuments {
  private readonly byClient = new Map<number, Map<string, ClientDocument>>();
  /** Documents no client holds any more, kept open in the server for a while (see release). */
  private readonly lingering = new Map<string, NodeJS.Timeout>();
  /** File paths of document URIs, for the per-request checks of unheld documents. */
  private readonly paths = new Map<string, string>();
  /** Disk checks under way; stats and tests wait for them (`settled`). */
  private readonly checks = new Set<Promise<unknown>>();

  constructor(
    private readonly server: () => DocumentStore | undefined,
    /** Called after the server was given new text for a URI (or it was closed). */
    private readonly onSynced: (uri: string) => void = () => undefined,
    /**
     * Whether a client is still connected. A client that has gone holds nothing: a message of its
     * that was still queued (behind another client's exclusive section) changes nothing, or the
     * server would keep text no client has until the broker stops.
     */
    private readonly connected: (client: number) => boolean = () => true,
  ) {}

  didOpen(client: number, p: DidOpenTextDocumentParams): void {
    if (!this.connected(client)) return;
    const { uri, languageId, version } = p.textDocument;
    const text = this.shared(uri, p.textDocument.text);
    this.stopLingering(uri);
    this.docsOf(client).set(uri, { languageId, version, text });
    this.push(uri, languageId, text);
    // A client that opens a file usually sends the disk's text: then the server's copy follows the disk.
    this.track(this.adopt(uri));
  }

  didChange(client: number, p: DidChangeTextDocumentParams): void {
    const { uri, version } = p.textDocument;
    const doc = this.byClient.get(client)?.get(uri);
    if (!doc) return; // a change for a document this client never opened (or from a client gone): nothing to base it on
    let text = doc.text;
    for (const change of p.contentChanges) {
      text = 'range' in change ? applyTextEdits(text, [{ range: change.range, newText: change.text }]) : change.text;
    }
    doc.text = this.shared(uri, text);
    doc.version = version;
    this.push(uri, doc.languageId, doc.text);
  }

  didClose(client: number, p: DidCloseTextDocumentParams): void {
    this.release(client, p.textDocument.uri);
  }

  /** Closes everything a client held (it disconnected). */
  dropClient(client: number): void {
    for (const uri of [...this.docsOf(client).keys()]) this.release(client, uri);
    this.byClient.delete(client);
  }

  /**
   * The text to keep for a client: the server's copy itself when it is the same text. Agents
   * sharing a broker open the same files with the disk's text, and each didOpen arrives as a
   * string of its own; without this the broker would keep one copy per client besides the server's.
   */
  private shared(uri: string, text: string): string {
    const held = this.server()?.get(uri)?.text;
    return held !== undefined && held === text ? held : text;
  }

  /** The version of the server's copy of `uri` (undefined: not open in the server). */
  serverVersion(uri: string): number | undefined {
    return this.server()?.get(uri)?.version;
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

  /**
   * Before a client's request about `uri`: the server is given that client's own text when it holds
   * another (an editor's unsaved buffer, an agent's disk text), so each client is answered for its
   * own text. Returns whether the server's copy changed.
   */
  useClientText(client: number, uri: string): boolean {
    const own = this.clientDocument(client, uri);
    const store = this.server();
    if (!own || !store || store.get(uri)?.text === own.text) return false;
    this.push(uri, own.languageId, own.text);
    return true;
  }

  /** How many other clients hold `uri` with a text other than this client's. */
  otherTexts(client: number, uri: string): number {
    const own = this.clientDocument(client, uri)?.text;
    let n = 0;
    for (const [id, docs] of this.byClient) {
      const doc = id === client ? undefined : docs.get(uri);
      if (doc && doc.text !== own) n++;
    }
    return n;
  }

  /** The documents a client holds. */
  urisOf(client: number): string[] {
    return [...(this.byClient.get(client)?.keys() ?? [])];
  }

  /** The clients that hold a document. */
  holders(uri: string): number[] {
    return [...this.byClient].filter(([, docs]) => docs.has(uri)).map(([id]) => id);
  }

  /**
   * Documents the server holds that no connected client holds with that text and that are not
   * known to be the disk's: always none (the invariant `$/agentLsp/stats` reports for tests).
   */
  unaccounted(): string[] {
    const store = this.server();
    if (!store) return [];
    return store.uris({ includeInternal: true }).filter((uri) => {
      const doc = store.get(uri);
      if (!doc || doc.disk !== undefined) return false;
      for (const [client, docs] of this.byClient) if (this.connected(client) && docs.get(uri)?.text === doc.text) return false;
      return true;
    });
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
    if (other) {
      this.push(uri, other.languageId, other.text);
      return;
    }
    this.releaseServerCopy(uri);
  }

  /**
   * The last holder let go. When the server's text is the disk's, the document stays open for
   * LINGER_MS: the next agent that opens it (a new front, minutes later) finds the server's work on
   * it done instead of starting over. Unsaved text is closed as soon as that is known, so nobody
   * else sees it.
   */
  private releaseServerCopy(uri: string): void {
    const held = this.server()?.get(uri);
    if (!held) return;
    if (held.disk) {
      this.linger(uri);
      return;
    }
    // Not known to be the disk's text (changed since opened, or opened a moment ago): look.
    this.track(
      this.adopt(uri).then(() => {
        if (this.holders(uri).length > 0 || this.lingering.has(uri)) return;
        if (this.server()?.get(uri)?.disk) this.linger(uri);
        else if (this.server()?.close(uri)) this.onSynced(uri);
      }),
    );
  }

  private linger(uri: string): void {
    this.stopLingering(uri);
    this.lingering.set(
      uri,
      setTimeout(() => {
        this.lingering.delete(uri);
        if (this.holders(uri).length === 0 && this.server()?.close(uri)) this.onSynced(uri);
      }, LINGER_MS),
    );
  }

  /** Records the server's copy of `uri` as the disk's when it equals the file now. */
  private async adopt(uri: string): Promise<void> {
    const store = this.server();
    if (store) await syncWithDisk(store, [uri], { ownText: 'keep', closeMissing: false });
  }

  private track(check: Promise<unknown>): void {
    const settled = check.catch(() => undefined).finally(() => this.checks.delete(settled));
    this.checks.add(settled);
  }

  /** Resolves once the disk checks started so far are done. */
  async settled(): Promise<void> {
    while (this.checks.size > 0) await Promise.all([...this.checks]);
  }

  /**
   * Documents the server holds that no client holds (lingering ones, the broker's own): when their
   * file changed since they were synced (size + mtime, then content), they get the disk's text, or
   * are closed when the file is gone. Runs before a request reaches the server, so an answer is
   * never computed on a stale copy nobody holds, even when the watcher has not fired (or cannot:
   * ENOSPC).
   */
  async refreshUnheld(): Promise<void> {
    const store = this.server();
    if (!store) return;
    let unheld = this.unheld(store);
    // The usual case, nothing changed, is settled by a few in-process stats: no thread-pool round
    // trip (nor a promise per document) on the path of every request. Only documents whose file
    // may have changed, or whose disk state is not known, go through the full check.
    if (unheld.length <= SYNC_STAT_MAX) unheld = unheld.filter((uri) => this.mayHaveChanged(store, uri));
    if (unheld.length === 0) return;
    try {
      const outcome = await syncWithDisk(store, unheld, { ownText: 'replace' });
      this.synced(outcome.resynced, outcome.closed);
    } catch {
      // the server went away meanwhile: the request that follows fails with that error
    }
  }

  private mayHaveChanged(store: DocumentStore, uri: string): boolean {
    const disk = store.get(uri)?.disk;
    if (disk === undefined) return true;
    let path = this.paths.get(uri);
    if (path === undefined) {
      // Parsing a URI costs more than the stat: done once per document, not once per request.
      if (this.paths.size >= 4096) this.paths.clear();
      path = uriToPath(uri) ?? '';
      this.paths.set(uri, path);
    }
    return path === '' || mayHaveChangedSync(path, disk);
  }

  private unheld(store: DocumentStore, among: readonly string[] = store.uris({ includeInternal: true })): string[] {
    const held = new Set<string>();
    for (const docs of this.byClient.values()) for (const uri of docs.keys()) held.add(uri);
    return among.filter((uri) => !held.has(uri) && store.get(uri) !== undefined);
  }

  /**
   * Files changed on disk (the watcher): server copies that are the disk's follow it — the ones no
   * client holds, and held ones whose holders' text was the disk's (a gone file closes only the
   * former). A client's own unsaved text is left alone.
   */
  async diskChanged(uris: readonly string[]): Promise<void> {
    const store = this.server();
    if (!store) return;
    const unheld = this.unheld(store, uris);
    const held = uris.filter((uri) => store.get(uri) !== undefined && !unheld.includes(uri));
    try {
      const [a, b] = await Promise.all([
        syncWithDisk(store, unheld, { ownText: 'replace' }),
        syncWithDisk(store, held, { ownText: 'keep', closeMissing: false }),
      ]);
      this.synced([...a.resynced, ...b.resynced], [...a.closed, ...b.closed]);
    } catch {
      // the server went away meanwhile: a restarted one gets the clients' documents afresh
    }
  }

  /** Files just deleted on disk that no client holds: the server drops them at once (closeDeletedFiles). */
  closeDeleted(uris: readonly string[], server: Pick<ServerDefinition, 'extensions'>): void {
    const store = this.server();
    if (store) closeDeletedFiles(store, server, uris);
  }

  /**
   * Files just created on disk, opened in the server at once (openCreatedFiles) and left to linger
   * like a released document. Resolves with those back after they were closed as gone.
   */
  async openCreated(uris: readonly string[], server: Pick<ServerDefinition, 'extensions'>): Promise<string[]> {
    const store = this.server();
    if (!store) return [];
    const { opened, restored } = await openCreatedFiles(store, server, uris);
    for (const uri of opened) {
      this.linger(uri);
      this.onSynced(uri);
    }
    return restored;
  }


  private synced(resynced: readonly string[], closed: readonly string[]): void {
    for (const uri of closed) this.stopLingering(uri);
    for (const uri of [...resynced, ...closed]) this.onSynced(uri);
  }

  /**
   * An exclusive section ended and put these documents back: one that no client holds any more
   * is released like any other (lingers when it is the disk's text, else closes).
   */
  restored(uris: readonly string[]): void {
    for (const uri of uris) {
      if (this.holders(uri).length > 0 || this.lingering.has(uri) || !this.server()?.get(uri)) continue;
      this.releaseServerCopy(uri);
    }
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
