import type { DiskState, DocumentSnapshot, LspConnection, SettledBy, SettledDiagnostics, SyncOptions } from '@agent-lsp/lsp';
import { mayHaveChangedSync, RequestTimeoutError } from '@agent-lsp/lsp';
import { uriToPath } from '@agent-lsp/protocol';

/**
 * The server's buffers as an evaluation changes them inside an exclusive section: a thin layer
 * over the document store's snapshot, which remembers what each document was before its first
 * change (open with some text, or not open) and puts exactly that back on restore, so the section
 * ends with the server as it found it.
 */
export class ServerBuffers {
  private snapshot: DocumentSnapshot;

  constructor(private readonly conn: LspConnection) {
    this.snapshot = conn.documents.snapshot();
  }

  /** Internal unless the document was open for the agent before the section. */
  private internal(uri: string): boolean {
    this.snapshot.record(uri);
    return this.snapshot.before(uri)?.internal ?? true;
  }

  /**
   * Makes the server hold `text` for `uri` (opening it when needed). `disk`: the file's state when
   * `text` was read from it; while the file is still so (a stat), the text is the disk's, and
   * opening it changes nothing for the other files (their settled diagnostics still hold: clangd
   * publishes nothing more for a file whose unit it does not change, so waiting for a later push
   * would wait in vain).
   */
  hold(uri: string, languageId: string, text: string, disk?: DiskState): void {
    this.conn.documents.sync(uri, languageId, text, this.syncOptions(uri, this.internal(uri), disk));
  }

  /** `disk` only while the file is still as it was read (a stat). */
  private syncOptions(uri: string, internal: boolean, disk: DiskState | undefined): SyncOptions {
    const path = uriToPath(uri);
    return disk !== undefined && path !== undefined && !mayHaveChangedSync(path, disk) ? { internal, disk } : { internal };
  }

  /**
   * Closes and opens `uri` again with `text`: the server analyses it afresh against the other
   * buffers as they are now (clangd and gopls do not re-check an unchanged open file on their own).
   * With `disk` (the file as `text` was read), the text is the disk's: giving it changes nothing
   * for the other files, so it does not make their pushes wait for a later answer to count.
   */
  reopen(uri: string, languageId: string, text: string, disk?: DiskState): void {
    const internal = this.internal(uri);
    const held = this.conn.documents.get(uri);
    // Held with this text already (its baseline was taken in this section): what the other
    // documents see does not change, so their answers settled before still hold.
    if (held?.text === text && held.languageId === languageId) {
      this.conn.documents.reopen(uri);
      return;
    }
    if (held) this.conn.documents.close(uri);
    this.conn.diagnostics.forget(uri);
    this.conn.documents.sync(uri, languageId, text, this.syncOptions(uri, internal, disk));
  }

  /** Every changed document back as it was (or closed again); throws after trying them all. */
  restore(): void {
    const snapshot = this.snapshot;
    this.snapshot = this.conn.documents.snapshot();
    this.conn.documents.restore(snapshot);
  }
}

/** Baselines are settled once per file and content; they may take a cold server a while. */
export const BASELINE_TIMEOUT_MS = 60_000;

/** Settles a document's diagnostics; a request that times out answers with what was pushed, as `timeout`. */
export async function settleWithin(conn: LspConnection, uri: string, timeoutMs: number): Promise<SettledDiagnostics> {
  try {
    return await conn.diagnostics.settle(uri, timeoutMs);
  } catch (err) {
    if (!(err instanceof RequestTimeoutError)) throw err;
    return { uri, diagnostics: conn.diagnostics.lastPushed().get(uri) ?? [], settledBy: 'timeout' };
  }
}

/** A baseline the server did not confirm for exactly its text (a quiet window, a timeout). */
export function unconfirmed(settledBy: SettledBy): boolean {
  return settledBy === 'quiet' || settledBy === 'timeout';
}
