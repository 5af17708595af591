import type { LspConnection, SettledDiagnostics } from '@agent-lsp/lsp';
import { RequestTimeoutError } from '@agent-lsp/lsp';

interface Prior {
  languageId: string;
  text: string;
  internal: boolean;
}

/**
 * The server's buffers as an evaluation changes them inside an exclusive section: remembers what
 * each document was before its first change (open with some text, or not open) and puts exactly
 * that back on restore, so the section ends with the server as it found it.
 */
export class ServerBuffers {
  private readonly prior = new Map<string, Prior | null>();

  constructor(private readonly conn: LspConnection) {}

  private remember(uri: string): void {
    if (this.prior.has(uri)) return;
    const doc = this.conn.documents.get(uri);
    this.prior.set(uri, doc ? { languageId: doc.languageId, text: doc.text, internal: doc.internal } : null);
  }

  /** Makes the server hold `text` for `uri` (opening it when needed). */
  hold(uri: string, languageId: string, text: string): void {
    this.remember(uri);
    const before = this.prior.get(uri);
    this.conn.documents.sync(uri, languageId, text, { internal: before ? before.internal : true });
  }

  /**
   * Closes and opens `uri` again with `text`: the server analyses it afresh against the other
   * buffers as they are now (clangd and gopls do not re-check an unchanged open file on their own).
   */
  reopen(uri: string, languageId: string, text: string): void {
    this.remember(uri);
    const before = this.prior.get(uri);
    if (this.conn.documents.get(uri)) this.conn.documents.close(uri);
    this.conn.diagnostics.forget(uri);
    this.conn.documents.sync(uri, languageId, text, { internal: before ? before.internal : true });
  }

  /** Every changed document back as it was (or closed again); throws after trying them all. */
  restore(): void {
    const failures: string[] = [];
    for (const [uri, before] of [...this.prior].reverse()) {
      try {
        if (before) {
          this.conn.documents.sync(uri, before.languageId, before.text, { internal: before.internal });
        } else if (this.conn.documents.get(uri)) {
          this.conn.documents.close(uri);
          this.conn.diagnostics.forget(uri);
        }
      } catch (err) {
        failures.push(`${uri}: ${(err as Error).message}`);
      }
    }
    this.prior.clear();
    if (failures.length) throw new Error(`could not restore the server's buffers: ${failures.join('; ')}`);
  }
}

/** Settles a document's diagnostics; a request that times out answers with what was pushed, as `timeout`. */
export async function settleWithin(conn: LspConnection, uri: string, timeoutMs: number): Promise<SettledDiagnostics> {
  try {
    return await conn.diagnostics.settle(uri, timeoutMs);
  } catch (err) {
    if (!(err instanceof RequestTimeoutError)) throw err;
    return { uri, diagnostics: conn.diagnostics.lastPushed().get(uri) ?? [], settledBy: 'timeout' };
  }
}
