import { unitBuiltWithout } from './cFamilyUnits.js';

/** Files whose last change is known one by one; lastAffecting walks them all for each question. */
const MAX_REMEMBERED = 5000;

/**
 * The changes the server was told of that may change a document's diagnostics without changing
 * its text: watched-file events, and another document's new text. Numbered in the order sent; a
 * request sent after change n and answered proves the server read it (JSON-RPC keeps order), so a
 * push received after that answer was sent with change n known.
 */
export class WorkspaceChanges {
  private last = 0;
  private lastBeyondDocuments = 0;
  private readonly lastOfDocument = new Map<string, number>();
  /** Per document, the version last sent and the last change sent before or with it. */
  private readonly textOfDocument = new Map<string, { version: number; at: number }>();
  /** The last change the server is known to have read. */
  read = 0;

  get sent(): number {
    return this.last;
  }

  beyondDocuments(): void {
    this.lastBeyondDocuments = ++this.last;
  }

  document(uri: string): void {
    this.lastOfDocument.set(uri, ++this.last);
  }

  /**
   * Files changed on disk, one change: each counts as that file's, so a change to a C source
   * counts only for the units that include it (lastAffecting). Past MAX_REMEMBERED files known one
   * by one (a checkout of a large tree), all count for every document, as beyondDocuments.
   */
  files(uris: readonly string[]): void {
    const n = ++this.last;
    for (const uri of uris) this.lastOfDocument.set(uri, n);
    if (this.lastOfDocument.size > MAX_REMEMBERED) {
      this.lastBeyondDocuments = n;
      this.lastOfDocument.clear();
    }
  }

  /** `uri`'s text at `version` was sent; every change counted so far went before it. */
  textSent(uri: string, version: number): void {
    this.textOfDocument.set(uri, { version, at: this.last });
  }

  /**
   * The server had read every change up to this one when it published for `uri` at `version`: it
   * could name that version only after reading its text, which was sent after those changes.
   */
  readWith(uri: string, version: number | undefined): number {
    const sent = this.textOfDocument.get(uri);
    return sent !== undefined && sent.version === version ? Math.max(this.read, sent.at) : this.read;
  }

  /**
   * The last change that may affect `uri` other than its own text (which its version covers).
   * With `text`, `uri`'s text: another document's change that cannot be part of its unit (a C
   * source it does not include, cFamilyUnits.ts) does not count; clangd publishes nothing for a
   * file such a change leaves as it was, so waiting for a push after it would wait in vain.
   */
  lastAffecting(uri: string, text?: string): number {
    let last = this.lastBeyondDocuments;
    for (const [other, n] of this.lastOfDocument) {
      if (other === uri || n <= last) continue;
      if (text !== undefined && unitBuiltWithout([other], uri, text)) continue;
      last = n;
    }
    return last;
  }
}
