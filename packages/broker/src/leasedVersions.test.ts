import { describe, expect, it } from 'vitest';
import { createLogger, DocumentStore } from '@agent-lsp/lsp';
import { LeaseManager, type LeaseHost } from './lease.js';
import { SharedDocuments } from './sharedDocuments.js';

const URI = 'file:///w/main.cpp';

/** A broker as the lease manager sees it, over a server document store that records what it sends. */
function broker() {
  const sent: string[] = [];
  const store = new DocumentStore({
    didOpen: (p) => sent.push(`open ${p.textDocument.version}`),
    didChange: (p) => sent.push(`change ${p.textDocument.version}`),
    didClose: () => sent.push('close'),
  });
  const documents = new SharedDocuments(() => store);
  const host: LeaseHost = {
    logger: createLogger({ level: 'error', sink: () => undefined }),
    documents,
    serverDocuments: () => store,
    inFlightOfOthers: () => 0,
    sectionActive: () => undefined,
    restored: () => undefined,
    clientCount: () => 2,
    requests: () => ({ inFlight: 0, queued: 0 }),
    leaseExpired: () => undefined,
  };
  return { store, documents, sent, leases: new LeaseManager(host) };
}

describe('LeasedVersions through a lease', () => {
  it('opens afresh, after the restore, a document the server holds at a version the lease gave it, and remembers that version', async () => {
    const { store, documents, sent, leases } = broker();
    documents.didOpen(2, { textDocument: { uri: URI, languageId: 'cpp', version: 1, text: 'disk' } });
    const lease = await leases.acquire(1, 60_000);
    // The holder opens it with the same text and the server builds it afresh in the lease (DiagnosticsBridge.replay).
    leases.noteChange(1, URI);
    documents.didOpen(1, { textDocument: { uri: URI, languageId: 'cpp', version: 1, text: 'disk' } });
    store.reopen(URI);
    const inLease = store.get(URI)?.version as number;
    sent.length = 0;
    leases.release(1, lease.leaseId);
    // Built against the lease's other texts: a push stamped with it must reach no one, and the
    // server builds the document again under a version no lease gave.
    // (A reopen skips the version after the close: documents.ts.)
    expect(sent).toEqual(['close', `open ${inLease + 2}`]);
    expect(store.get(URI)?.text).toBe('disk');
    expect(leases.leasedVersions.has(store, URI, inLease)).toBe(true);
    expect(leases.leasedVersions.has(store, URI, inLease + 2)).toBe(false);
    leases.dispose();
  });
});
