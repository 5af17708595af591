import type {
  Diagnostic,
  DocumentDiagnosticReport,
  PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol';
import { ErrorCodes, Emitter, type BrokerSettledDiagnosticsResult, type Disposable } from '@agent-lsp/protocol';
import type { DocumentStore } from './documents.js';
import { WorkspaceChanges } from './workspaceChanges.js';
import { tsserverExact } from './tsserverDiagnostics.js';
import { isServerAnswer } from './errors.js';

/**
 * How a diagnostics answer was known to describe the current text, strongest first. `push`: a
 * server whose pushes carry no version pushed after the change and answered a request sent after
 * it. `quiet` and `timeout` are not confirmations: the server never said the answer was for this
 * text — `quiet` is also the answer when another file changed since the server last published this
 * one and it published nothing more within a quiet window after reading that change (a server that
 * publishes only what changed).
 */
export const SETTLED_BY = ['pull', 'exact', 'version', 'push', 'quiet', 'timeout'] as const;
export type SettledBy = (typeof SETTLED_BY)[number];

export interface SettledDiagnostics {
  uri: string;
  diagnostics: Diagnostic[];
  settledBy: SettledBy;
}

interface PushedDiagnostics {
  version: number | undefined;
  diagnostics: Diagnostic[];
  receivedAt: number;
  /** The text the push describes, when it named the version the server held (for a later identical text). */
  text: string | undefined;
  /** The server had read every change up to this one (WorkspaceChanges) when it sent the push. */
  afterChange: number;
}

/** What the collector needs from its connection. */
export interface DiagnosticsHost {
  readonly documents: DocumentStore;
  supportsPullDiagnostics(): boolean;
  readonly exactDiagnostics: 'tsserver' | 'pull' | undefined;
  request<R>(method: string, params: unknown, options?: { timeoutMs?: number }): Promise<R>;
  /**
   * Resolves once the peer has passed on the changes it knows of itself (a broker's watcher), each
   * reported through `workspaceChanged` before it resolves. Absent when the peer is the server.
   */
  catchUp?(): Promise<void>;
  /**
   * The peer's (a broker's) last push for `uri` when it knows it settles for the text this side
   * holds (its version here), else null. Absent when the peer is the server.
   */
  peerSettled?(uri: string): Promise<BrokerSettledDiagnosticsResult | null>;
  /** Fires when the server registers or unregisters a capability (pull diagnostics may come late). */
  onRegistrationChange?(listener: () => void): Disposable;
}

export const QUIET_WINDOW_MS = 500;

/**
 * The diagnostics of a full pull report; undefined for `unchanged`. gopls (v0.23) answers a full
 * report with `kind: ""`: a report that carries items is full whatever its kind says.
 */
export function fullReportItems(report: DocumentDiagnosticReport | null | undefined): Diagnostic[] | undefined {
  if (!report || report.kind === 'unchanged') return undefined;
  return Array.isArray((report as { items?: unknown }).items) ? report.items : undefined;
}

/**
 * Collects the server's diagnostics and tells when they describe the current text: pull first,
 * then a server-specific exact query, then a push stamped with the version sent (or with an
 * earlier version of the very same text: clangd does not publish again for a text it already
 * built), then a push without a version received after the change once the server answered a
 * request sent after it and went quiet (gopls sends some pushes unversioned; after a close, only a
 * push after that answer counts). A quiet window alone settles nothing: it ends as `quiet`.
 */
export class DiagnosticsCollector {
  private readonly pushed = new Map<string, PushedDiagnostics>();
  private readonly pushEmitter = new Emitter<string>();
  private readonly changes = new WorkspaceChanges();
  /** Fires with the URI of every push. */
  readonly onPush = this.pushEmitter.on.bind(this.pushEmitter);

  constructor(private readonly host: DiagnosticsHost) {}

  /** Feed for textDocument/publishDiagnostics. */
  onPublish(params: PublishDiagnosticsParams): void {
    const doc = this.host.documents.get(params.uri);
    const text = doc !== undefined && params.version === doc.version ? doc.text : undefined;
    this.pushed.set(params.uri, { version: params.version ?? undefined, diagnostics: params.diagnostics, receivedAt: Date.now(), text, afterChange: this.changes.readWith(params.uri, params.version ?? undefined) });
    this.pushEmitter.fire(params.uri);
  }

  /** The server was told of a change beyond open documents' text (folders, settings). */
  workspaceChanged(): void {
    this.changes.beyondDocuments();
  }

  /** The server was told of files changed on disk (its watched files, or a peer's watcher through the broker). */
  filesChanged(uris: readonly string[]): void {
    this.changes.files(uris);
  }

  /** The server was given new text for `uri` (not the disk's as it read it itself). */
  documentChanged(uri: string): void {
    this.changes.document(uri);
  }

  /** The server was sent `uri`'s text at `version` (after what `documentChanged` counted of it). */
  textSent(uri: string, version: number): void {
    this.changes.textSent(uri, version);
  }

  /**
   * The server's last push for `uri` when it still settles: versioned for the text the server holds
   * and sent after the server read every change that may affect it. A broker gives it to a client
   * that opens a document the server already holds with that text (the server publishes nothing).
   */
  settledPush(uri: string): PublishDiagnosticsParams | undefined {
    const p = this.pushed.get(uri);
    const doc = this.host.documents.get(uri);
    if (!p || !doc || p.version !== doc.version || p.afterChange < this.changes.lastAffecting(uri, doc.text)) return undefined;
    return { uri, version: p.version, diagnostics: p.diagnostics };
  }

  /**
   * Whether the server has published for the text it holds for `uri` (a push stamped with its
   * version or a later one, or with an earlier version of the very same text): it has built it.
   */
  published(uri: string): boolean {
    const p = this.pushed.get(uri);
    const doc = this.host.documents.get(uri);
    if (!p || !doc || p.version === undefined) return false;
    return p.version >= doc.version || (p.text !== undefined && p.text === doc.text);
  }

  /**
   * Resolves true once the server has pushed for `uri` after its current text was sent, false at
   * `timeoutMs`. typescript-language-server offers a fix-all only for diagnostics it has published
   * itself, so its code actions are complete only then (its answer to the exact query comes first).
   */
  publishedForText(uri: string, timeoutMs: number): Promise<boolean> {
    const now = (): boolean => {
      const doc = this.host.documents.get(uri);
      const p = this.pushed.get(uri);
      return doc !== undefined && p !== undefined && p.receivedAt >= doc.syncedAt;
    };
    if (now()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (published: boolean) => {
        sub.dispose();
        clearTimeout(timer);
        resolve(published);
      };
      const sub = this.pushEmitter.on((pushedUri) => pushedUri === uri && now() && finish(true));
      const timer = setTimeout(() => finish(false), timeoutMs);
    });
  }

  /** How many changes the server has been sent (for serverRead). */
  get changesSent(): number {
    return this.changes.sent;
  }

  /** A request sent after `sent` changes was answered: the server has read them, and its later pushes count. */
  serverRead(sent: number): void {
    this.changes.read = Math.max(this.changes.read, sent);
  }

  /** The last diagnostics the server pushed for each URI (no settling). */
  lastPushed(): Map<string, Diagnostic[]> {
    return new Map([...this.pushed].map(([uri, p]) => [uri, p.diagnostics]));
  }

  /**
   * A server that does not answer a pull or tsserver's query within `timeoutMs` (the Vue pair right
   * after its start, under load) settles nothing: `timeout`, with what it last pushed, as a push
   * wait's deadline does; not an error that hides which files were not examined.
   */
  async settle(uri: string, timeoutMs: number): Promise<SettledDiagnostics> {
    try {
      return await this.settleOrThrow(uri, timeoutMs);
    } catch (err) {
      // Through a broker, its own timeout of the request comes as the same code.
      if ((err as { code?: number }).code !== ErrorCodes.RequestTimeout) throw err;
      return { uri, diagnostics: this.pushed.get(uri)?.diagnostics ?? [], settledBy: 'timeout' };
    }
  }

  private async settleOrThrow(uri: string, timeoutMs: number): Promise<SettledDiagnostics> {
    if (this.host.supportsPullDiagnostics()) {
      return { uri, diagnostics: await this.pull(uri, timeoutMs), settledBy: 'pull' };
    }
    if (this.host.exactDiagnostics === 'tsserver') {
      const exact = await tsserverExact(this.host, uri, timeoutMs);
      if (exact) return { uri, diagnostics: exact, settledBy: 'exact' };
    }
    await this.host.catchUp?.();
    const began = Date.now();
    const pushed = await this.waitForPush(uri, timeoutMs);
    // Through a broker, the push may have come after the server read a change from the broker's
    // watcher but before this side's probe was answered: only the broker can tell it settles.
    if (pushed.settledBy === 'quiet') return (await this.settledByPeer(uri)) ?? pushed;
    if (pushed.settledBy !== 'pull') return pushed;
    // basedpyright registers textDocument/diagnostic once its workspace is loaded and never pushes
    // to a client that can pull: a wait begun before that asks by pull once the registration comes.
    return { uri, diagnostics: await this.pull(uri, Math.max(1, timeoutMs - (Date.now() - began))), settledBy: 'pull' };
  }

  private async settledByPeer(uri: string): Promise<SettledDiagnostics | undefined> {
    const peer = await this.host.peerSettled?.(uri).catch(() => null);
    return peer && peer.version === this.host.documents.get(uri)?.version ? { uri, diagnostics: peer.diagnostics as Diagnostic[], settledBy: 'version' } : undefined;
  }

  private async pull(uri: string, timeoutMs: number): Promise<Diagnostic[]> {
    // A server may cancel a pull while it recomputes (ServerCancelled); ask again.
    for (let attempt = 0; ; attempt++) {
      try {
        const report = await this.host.request<DocumentDiagnosticReport>(
          'textDocument/diagnostic',
          { textDocument: { uri } },
          { timeoutMs },
        );
        return fullReportItems(report) ?? this.pushed.get(uri)?.diagnostics ?? [];
      } catch (err) {
        const code = (err as { code?: number }).code;
        if (attempt < 3 && (code === ErrorCodes.ServerCancelled || code === ErrorCodes.ContentModified)) continue;
        throw err;
      }
    }
  }

  /** No other document changed since `at` (the same millisecond counts as since): a push of an identical text still holds. */
  private othersUnchangedSince(uri: string, at: number): boolean {
    return this.host.documents.uris({ includeInternal: true }).every((u) => u === uri || (this.host.documents.get(u)?.syncedAt ?? 0) < at);
  }

  private waitForPush(uri: string, timeoutMs: number): Promise<SettledDiagnostics> {
    const doc = this.host.documents.get(uri);
    const current = () => this.pushed.get(uri);
    /** A versioned push of exactly the text the server holds now (the workspace may have changed since). */
    const ofThisText = (): boolean => {
      const p = current();
      if (!doc || !p || p.version === undefined) return false;
      if (p.version === doc.version) return true;
      return p.text !== undefined && p.text === doc.text && this.othersUnchangedSince(uri, p.receivedAt);
    };
    /** The last push was sent after the server read every change that may affect it (a dependency renamed, say). */
    const afterChanges = (): boolean => (current()?.afterChange ?? 0) >= this.changes.lastAffecting(uri, doc?.text);
    const confirmed = (): boolean => ofThisText() && afterChanges();
    if (confirmed()) return Promise.resolve({ uri, diagnostics: current()?.diagnostics ?? [], settledBy: 'version' });

    return new Promise((resolve) => {
      let quietTimer: NodeJS.Timeout | undefined;
      let done = false;
      // The server answered a request sent after the text: it has read the change (JSON-RPC keeps order).
      let probeAnswered = false;
      let quietElapsed = false;
      // An unversioned push arrived after the probe's answer: it cannot be what the server said
      // while closing the document before (clangd clears a closed file's diagnostics, unversioned).
      let pushAfterProbe = false;
      /** An unversioned push sent after the text was: right after it was sent, unless the document was just closed. */
      const unversionedSinceText = () => {
        const p = current();
        if (p === undefined || p.version !== undefined) return false;
        if (doc === undefined) return true;
        return p.receivedAt >= doc.syncedAt && (!this.closed.has(uri) || pushAfterProbe);
      };
      const freshUnversioned = () => unversionedSinceText() && afterChanges();
      /** What the server last said of this text, though perhaps before another file changed. */
      const ofThisTextOnce = () => ofThisText() || unversionedSinceText();
      const finish = (settledBy: SettledBy) => {
        if (done) return;
        done = true;
        sub.dispose();
        registered?.dispose();
        clearTimeout(deadline);
        clearTimeout(quietTimer);
        resolve({ uri, diagnostics: current()?.diagnostics ?? [], settledBy });
      };
      const settleIfProcessed = () => {
        if (!quietElapsed || !probeAnswered) return;
        if (freshUnversioned()) finish('push');
        // The server read the change and said nothing new of this text within the window: it may
        // publish only what changed (gopls, clangd), or not be done yet. Not a confirmation.
        else if (ofThisTextOnce()) finish('quiet');
      };
      const armQuiet = () => {
        clearTimeout(quietTimer);
        quietElapsed = false;
        quietTimer = setTimeout(() => {
          quietElapsed = true;
          if (doc === undefined) finish('quiet');
          else settleIfProcessed();
        }, QUIET_WINDOW_MS);
      };
      const sub = this.pushEmitter.on((pushedUri) => {
        if (pushedUri !== uri) return;
        if (probeAnswered) pushAfterProbe = true;
        if (confirmed()) finish('version');
        else if (freshUnversioned() || (probeAnswered && ofThisTextOnce())) armQuiet();
      });
      // The server can now be asked by pull (settle pulls): it may never push at all.
      const registered = this.host.onRegistrationChange?.(() => {
        if (this.host.supportsPullDiagnostics()) finish('pull');
      });
      // Past the deadline: a window that went quiet without the server confirming is only `quiet`.
      const deadline = setTimeout(() => finish(quietElapsed && ofThisTextOnce() ? 'quiet' : 'timeout'), timeoutMs);
      if (doc) {
        const sent = this.changes.sent;
        const answered = () => {
          probeAnswered = true;
          this.serverRead(sent);
          if (confirmed()) finish('version');
          else if (freshUnversioned()) settleIfProcessed();
          else if (ofThisTextOnce()) armQuiet();
        };
        // An error answer is an answer too; a timeout or a lost connection is not.
        const failed = (err: unknown) => {
          if (isServerAnswer(err)) answered();
        };
        this.host.request('textDocument/documentSymbol', { textDocument: { uri } }, { timeoutMs }).then(answered, failed);
      }
      if (freshUnversioned()) armQuiet();
    });
  }

  /** The document was closed: what it pushes next may be the close's clear, not an answer. */
  forget(uri: string): void {
    this.pushed.delete(uri);
    this.closed.add(uri);
  }

  /** URIs closed (forgotten) at some point: their unversioned pushes count only after a probe's answer. */
  private readonly closed = new Set<string>();

  dispose(): void {
    this.pushEmitter.dispose();
    this.pushed.clear();
  }
}
