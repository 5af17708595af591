import type {
  Diagnostic,
  DiagnosticSeverity,
  DocumentDiagnosticReport,
  PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol';
import { ErrorCodes, uriToPath, Emitter } from '@agent-lsp/protocol';
import type { DocumentStore } from './documents.js';

/** How a diagnostics answer was known to describe the current text. */
export type SettledBy = 'pull' | 'version' | 'exact' | 'quiet' | 'timeout';

export interface SettledDiagnostics {
  uri: string;
  diagnostics: Diagnostic[];
  settledBy: SettledBy;
}

interface PushedDiagnostics {
  version: number | undefined;
  diagnostics: Diagnostic[];
  receivedAt: number;
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
 * then a server-specific exact query, then a push stamped with the version sent, then a quiet
 * window. Never guesses when the server can say.
 */
export class DiagnosticsCollector {
  private readonly pushed = new Map<string, PushedDiagnostics>();
  private readonly pushEmitter = new Emitter<string>();
  /** Fires with the URI of every push. */
  readonly onPush = this.pushEmitter.on.bind(this.pushEmitter);

  constructor(private readonly host: DiagnosticsHost) {}

  /** Feed for textDocument/publishDiagnostics. */
  onPublish(params: PublishDiagnosticsParams): void {
    this.pushed.set(params.uri, { version: params.version, diagnostics: params.diagnostics, receivedAt: Date.now() });
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

  private waitForPush(uri: string, timeoutMs: number): Promise<SettledDiagnostics> {
    const doc = this.host.documents.get(uri);
    const current = () => this.pushed.get(uri);
    const fresh = () => {
      const p = current();
      return p !== undefined && (doc === undefined || p.receivedAt >= doc.syncedAt);
    };
    const versionMatches = () => doc !== undefined && current()?.version === doc.version;
    if (versionMatches()) return Promise.resolve({ uri, diagnostics: current()?.diagnostics ?? [], settledBy: 'version' });

    return new Promise((resolve) => {
      let quietTimer: NodeJS.Timeout | undefined;
      const finish = (settledBy: SettledBy) => {
        sub.dispose();
        clearTimeout(deadline);
        clearTimeout(quietTimer);
        resolve({ uri, diagnostics: current()?.diagnostics ?? [], settledBy });
      };
      const armQuiet = () => {
        clearTimeout(quietTimer);
        quietTimer = setTimeout(() => finish('quiet'), QUIET_WINDOW_MS);
      };
      const sub = this.pushEmitter.on((pushedUri) => {
        if (pushedUri !== uri) return;
        if (versionMatches()) finish('version');
        else armQuiet();
      });
      const deadline = setTimeout(() => finish('timeout'), timeoutMs);
      if (fresh()) armQuiet();
    });
  }

  forget(uri: string): void {
    this.pushed.delete(uri);
  }

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
