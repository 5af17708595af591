import type { Diagnostic, DocumentDiagnosticReport, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { fullReportItems, type DocumentStore, type LspConnection, type Logger } from '@agent-lsp/lsp';
import type { BrokerClient } from './brokerClient.js';
import type { SharedDocuments } from './sharedDocuments.js';

const PULL_DEBOUNCE_MS = 150;

/**
 * Diagnostics reach every client, however it asks. Pushes are forwarded with `version` translated
 * to each client's own version when they describe exactly the text that client last sent (and
 * without a version otherwise). For clients that cannot pull, from a server that only answers
 * pulls (pyright stops pushing once pull is registered), the broker pulls after every change and
 * pushes the result.
 */
export class DiagnosticsBridge {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** `client uri` → the client's version last pushed diagnostics computed on exactly its text. */
  private readonly pushedFor = new Map<string, number>();

  constructor(
    private readonly documents: SharedDocuments,
    private readonly clients: () => Iterable<BrokerClient>,
    private readonly server: () => LspConnection | undefined,
    private readonly logger: Logger,
    /** Whether a client may see diagnostics of a document (not while another holds it leased). */
    private readonly visible: (client: BrokerClient, uri: string) => boolean = () => true,
    /** Whether `store` gave the server `uri` at `version` in a lease (the holder's text, maybe speculative). */
    private readonly leased: (store: DocumentStore, uri: string, version: number) => boolean = () => false,
  ) {}

  /** A push from the server. */
  forwardPush(params: PublishDiagnosticsParams, recipients: (c: BrokerClient) => boolean = () => true): void {
    const conn = this.server();
    const serverDoc = conn?.documents.get(params.uri);
    const current = params.version !== undefined && serverDoc !== undefined && params.version === serverDoc.version;
    // A text a lease gave the server and that is gone (the server finished building it after the
    // lease ended, or after the holder moved on): no client holds it, its errors are nobody's.
    if (conn && params.version !== undefined && !current && this.leased(conn.documents, params.uri, params.version)) {
      this.logger.debug(`dropped a push for ${params.uri} at version ${params.version}: a text a lease gave the server, no longer there`);
      return;
    }
    for (const client of this.clients()) {
      if (!recipients(client) || !this.visible(client, params.uri)) continue;
      client.notify('textDocument/publishDiagnostics', this.forClient(client, params.uri, params.diagnostics, current ? serverDoc.text : undefined));
    }
  }

  /**
   * A client opened a document the server already held with the same text: the server publishes
   * nothing new, so the client gets the last push that still settles (stamped with its version).
   * When the server published for that text but something that may change its diagnostics happened
   * since (another document's text: an agent's evaluation gives a header its text, then opens the
   * header's users to check them), no push settles and none would come: for the lease's holder,
   * the server is given the document afresh (closed and opened with the same text), builds it
   * against what it holds now and publishes. Only in a lease: the others see nothing of what the
   * server says meanwhile of a document it closes (clangd clears its diagnostics).
   */
  replay(client: BrokerClient, uri: string, leaseHolder = false): void {
    const conn = this.server();
    const settled = conn?.diagnostics.settledPush(uri);
    if (settled) return this.forwardPush(settled, (c) => c === client);
    if (!leaseHolder || !conn || conn.supportsPullDiagnostics() || !conn.diagnostics.published(uri)) return;
    conn.documents.reopen(uri);
  }

  private forClient(client: BrokerClient, uri: string, diagnostics: Diagnostic[], describedText: string | undefined): PublishDiagnosticsParams {
    const own = this.documents.clientDocument(client.id, uri);
    if (describedText !== undefined && own !== undefined && own.text === describedText) return { uri, version: own.version, diagnostics };
    return { uri, diagnostics };
  }

  /** The server's text for `uri` changed: push-only clients holding it get fresh diagnostics. */
  changed(uri: string): void {
    const conn = this.server();
    if (!conn?.supportsPullDiagnostics()) return;
    if (!this.pushOnlyHolders(uri).length) return;
    clearTimeout(this.timers.get(uri));
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        void this.pullAndPush(conn, uri);
      }, PULL_DEBOUNCE_MS),
    );
  }

  /** The server's diagnostics changed beyond one document (a dependency changed on disk). */
  refreshAll(): void {
    // Other files changed what these documents' diagnostics are: every client is due a new push.
    this.pushedFor.clear();
    const uris = new Set<string>();
    for (const c of this.clients()) if (!c.canPull) for (const uri of this.documents.urisOf(c.id)) uris.add(uri);
    for (const uri of uris) this.changed(uri);
    this.refreshPullers();
  }

  /** Clients that pull are asked to pull again. */
  refreshPullers(): void {
    for (const c of this.clients()) if (c.canPull) c.request('workspace/diagnostic/refresh', null).catch(() => undefined);
  }

  private pushOnlyHolders(uri: string): BrokerClient[] {
    const holders = new Set(this.documents.holders(uri));
    return [...this.clients()].filter((c) => !c.canPull && holders.has(c.id) && this.visible(c, uri));
  }

  private async pullAndPush(conn: LspConnection, uri: string): Promise<void> {
    // The store updates its documents in place: remember the version, not the object.
    const before = conn.documents.get(uri)?.version;
    if (before === undefined) return;
    let report: DocumentDiagnosticReport;
    try {
      report = await conn.request<DocumentDiagnosticReport>('textDocument/diagnostic', { textDocument: { uri } }, { timeoutMs: 60_000 });
    } catch (err) {
      this.logger.debug(`bridging pull for ${uri} failed: ${(err as Error).message}`);
      return;
    }
    const after = conn.documents.get(uri);
    // The text moved on while we pulled: a newer pull is scheduled and will push instead.
    const items = fullReportItems(report);
    if (!after || after.version !== before || items === undefined) return;
    const due: BrokerClient[] = [];
    for (const client of this.pushOnlyHolders(uri)) {
      const own = this.documents.clientDocument(client.id, uri);
      // Diagnostics of someone else's text (another client's unsaved buffer) would mislead this one.
      if (own && own.text !== after.text) {
        if (this.pushedFor.get(`${client.id} ${uri}`) !== own.version) due.push(client);
        continue;
      }
      if (own) this.pushedFor.set(`${client.id} ${uri}`, own.version);
      client.notify('textDocument/publishDiagnostics', this.forClient(client, uri, items, after.text));
    }
    // A client whose text the server did not have gets it put back; the pull that change causes
    // pushes to it. One at a time, and never twice for one version, so two differing clients settle.
    const next = due[0];
    if (next) this.documents.useClientText(next.id, uri);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}
