import type { DocumentStore } from '@agent-lsp/lsp';
import type { Disposable } from '@agent-lsp/protocol';

/** Versions remembered per document: a lease rarely gives one document more texts than this. */
const KEPT_PER_DOCUMENT = 256;

/**
 * The server versions of the texts leases gave the server (the holder's, speculative ones
 * included). A server may still be building one when the lease ends (clangd, given the text a
 * moment before the release) and publish it afterwards, stamped with that version: the push
 * describes a text no client holds any more, and must reach nobody as if it were about theirs.
 * The store's versions never repeat for a URI, so a version names one text; they start again with
 * a restarted server's new store, hence one record per store.
 */
export class LeasedVersions {
  private readonly byStore = new WeakMap<DocumentStore, Map<string, number[]>>();

  /** Records every text `store` sends the server until the returned Disposable is disposed (the lease's end, before its restore). */
  follow(store: DocumentStore | undefined): Disposable {
    if (!store) return { dispose: () => {} };
    let versions = this.byStore.get(store);
    if (!versions) this.byStore.set(store, (versions = new Map<string, number[]>()));
    const record = versions;
    return store.onSent(({ kind, doc }) => {
      if (kind === 'close') return;
      const list = record.get(doc.uri) ?? [];
      list.push(doc.version);
      if (list.length > KEPT_PER_DOCUMENT) list.shift();
      record.set(doc.uri, list);
    });
  }

  /**
   * After a lease's restore: a document among `uris` the server still holds at a version the lease
   * gave it holds its text from before the lease (given back unchanged, or opened afresh with it in
   * the lease), but the server built that version against the lease's texts of other files (a
   * header's speculative text), and what it publishes for it must reach no one: it is opened afresh,
   * so the server builds it again against what it holds now, under a version no lease gave.
   */
  reopenBuiltInLease(store: DocumentStore, uris: readonly string[]): void {
    for (const uri of uris) {
      const version = store.get(uri)?.version;
      if (version !== undefined && this.has(store, uri, version)) store.reopen(uri);
    }
  }

  /** Whether `store` gave the server `uri` at `version` during a lease. */
  has(store: DocumentStore, uri: string, version: number): boolean {
    return this.byStore.get(store)?.get(uri)?.includes(version) ?? false;
  }
}
