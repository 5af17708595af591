import type {
  Diagnostic,
  DiagnosticSeverity,
  DocumentDiagnosticReport,
  PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol';
import { ErrorCodes, uriToPath, Emitter } from '@agent-lsp/protocol';
import type { DocumentStore } from './documents.js';

/**
 * How a diagnostics answer was known to describe the current text, strongest first. `push`: a
 * server whose pushes carry no version pushed after the change and answered a request sent after
 * it. `quiet` and `timeout` are not confirmations: the server never said the answer was for this
 * text.
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
}

/** What the collector needs from its connection. */
export interface DiagnosticsHost {
  readonly documents: DocumentStore;
  supportsPullDiagnostics(): boolean;
  readonly exactDiagnostics: 'tsserver' | undefined;
  request<R>(method: string, params: unknown, options?: { timeoutMs?: number }): Promise<R>;
}

export const QUIET_WINDOW_MS = 500;

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
  /** Fires with the URI of every push. */
  readonly onPush = this.pushEmitter.on.bind(this.pushEmitter);

  constructor(private readonly host: DiagnosticsHost) {}

  /** Feed for textDocument/publishDiagnostics. */
  onPublish(params: PublishDiagnosticsParams): void {
    const doc = this.host.documents.get(params.uri);
    const text = doc !== undefined && params.version === doc.version ? doc.text : undefined;
    this.pushed.set(params.uri, { version: params.version ?? undefined, diagnostics: params.diagnostics, receivedAt: Date.now(), text });
    this.pushEmitter.fire(params.uri);
  }


  /** The last diagnostics the server pushed for each URI (no settling). */
  lastPushed(): Map<string, Diagnostic[]> {
    return new Map([...this.pushed].map(([uri, p]) => [uri, p.diagnostics]));
  }

  async settle(uri: string, timeoutMs: number): Promise<SettledDiagnostics> {
    if (this.host.supportsPullDiagnostics()) {
      return { uri, diagnostics: await this.pull(uri, timeoutMs), settledBy: 'pull' };
    }
    if (this.host.exactDiagnostics === 'tsserver') {
      const exact = await this.tsserverExact(uri, timeoutMs);
      if (exact) return { uri, diagnostics: exact, settledBy: 'exact' };
    }
    return this.waitForPush(uri, timeoutMs);
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
        return report.kind === 'full' ? report.items : (this.pushed.get(uri)?.diagnostics ?? []);
      } catch (err) {
        const code = (err as { code?: number }).code;
        if (attempt < 3 && (code === ErrorCodes.ServerCancelled || code === ErrorCodes.ContentModified)) continue;
        throw err;
      }
    }
  }

  /**
   * typescript-language-server pushes without versions and never pushes for a file that stays
   * clean; tsserver's own *DiagnosticsSync commands answer for the current text.
   */
  private async tsserverExact(uri: string, timeoutMs: number): Promise<Diagnostic[] | undefined> {
    const file = uriToPath(uri);
    if (!file) return undefined;
    const kinds = ['syntacticDiagnosticsSync', 'semanticDiagnosticsSync', 'suggestionDiagnosticsSync'] as const;
    const results = await Promise.all(
      kinds.map((command) =>
        this.host.request<{ body?: TsDiagnostic[] } | TsDiagnostic[] | null>(
          'workspace/executeCommand',
          { command: 'typescript.tsserverRequest', arguments: [command, { file, includeLinePosition: false }] },
          { timeoutMs },
        ),
      ),
    );
    const out: Diagnostic[] = [];
    for (const result of results) {
      const list = Array.isArray(result) ? result : result?.body;
      if (!Array.isArray(list)) return undefined;
      for (const d of list) out.push(fromTsDiagnostic(d));
    }
    return out;
  }

  /** No other document changed since `at` (the same millisecond counts as since): a push of an identical text still holds. */
  private othersUnchangedSince(uri: string, at: number): boolean {
    return this.host.documents.uris({ includeInternal: true }).every((u) => u === uri || (this.host.documents.get(u)?.syncedAt ?? 0) < at);
  }

  private waitForPush(uri: string, timeoutMs: number): Promise<SettledDiagnostics> {
    const doc = this.host.documents.get(uri);
    const current = () => this.pushed.get(uri);
    /** A versioned push that describes exactly the text the server holds now. */
    const confirmed = (): boolean => {
      const p = current();
      if (!doc || !p || p.version === undefined) return false;
      if (p.version === doc.version) return true;
      return p.text !== undefined && p.text === doc.text && this.othersUnchangedSince(uri, p.receivedAt);
    };
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
      const freshUnversioned = () => {
        const p = current();
        if (p === undefined || p.version !== undefined) return false;
        if (doc === undefined) return true;
        return p.receivedAt >= doc.syncedAt && (!this.closed.has(uri) || pushAfterProbe);
      };
      const finish = (settledBy: SettledBy) => {
        if (done) return;
        done = true;
        sub.dispose();
        clearTimeout(deadline);
        clearTimeout(quietTimer);
        resolve({ uri, diagnostics: current()?.diagnostics ?? [], settledBy });
      };
      const settleIfProcessed = () => {
        if (quietElapsed && probeAnswered && freshUnversioned()) finish('push');
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
        else if (freshUnversioned()) armQuiet();
      });
      // Past the deadline: a window that went quiet without the server confirming is only `quiet`.
      const deadline = setTimeout(() => finish(quietElapsed && freshUnversioned() ? 'quiet' : 'timeout'), timeoutMs);
      if (doc) {
        const answered = () => {
          probeAnswered = true;
          settleIfProcessed();
        };
        this.host.request('textDocument/documentSymbol', { textDocument: { uri } }, { timeoutMs }).then(answered, answered);
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

interface TsDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code?: number;
  category?: string;
  source?: string;
}

const TS_SEVERITY: Record<string, DiagnosticSeverity> = { error: 1, warning: 2, message: 3, suggestion: 4 };

function fromTsDiagnostic(d: TsDiagnostic): Diagnostic {
  const diagnostic: Diagnostic = {
    range: {
      start: { line: d.start.line - 1, character: d.start.offset - 1 },
      end: { line: d.end.line - 1, character: d.end.offset - 1 },
    },
    message: d.text,
    severity: TS_SEVERITY[d.category ?? 'error'] ?? 1,
    source: d.source ?? 'typescript',
  };
  if (d.code !== undefined) diagnostic.code = d.code;
  return diagnostic;
}
