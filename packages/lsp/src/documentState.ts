import type { DidChangeTextDocumentParams } from 'vscode-languageserver-protocol';
import { splitLines } from '@agent-lsp/protocol';
import { DiagnosticsCollector, type DiagnosticsHost } from './diagnostics.js';
import { DocumentStore } from './documents.js';

/** What a connection's documents and diagnostics need of it. */
export interface DocumentStateHost extends Omit<DiagnosticsHost, 'documents'> {
  notify(method: string, params: unknown): void;
  /** The server was told of `uri`'s new text (its dependents and diagnostics are affected). */
  changedForOthers(uri: string): void;
  /** The server takes changes as ranges (TextDocumentSyncKind.Incremental). */
  incrementalSync(): boolean;
}

/**
 * A connection's document store, whose notifications go to the server through `host`, and the
 * diagnostics collected for those documents.
 */
export function documentState(host: DocumentStateHost): { documents: DocumentStore; diagnostics: DiagnosticsCollector } {
  const documents: DocumentStore = new DocumentStore({
    didOpen: (p, reopened) => {
      host.notify('textDocument/didOpen', p);
      // Text that is not the disk's (an overlay) changes what other files see; the disk's does not,
      // nor does the text the server held a moment ago (a reopen, for the server to build it afresh).
      if (!reopened && documents.get(p.textDocument.uri)?.disk === undefined) host.changedForOthers(p.textDocument.uri);
      diagnostics.textSent(p.textDocument.uri, p.textDocument.version);
    },
    didChange: (p, previous) => {
      host.notify('textDocument/didChange', host.incrementalSync() ? asRangedChange(p, previous) : p);
      host.changedForOthers(p.textDocument.uri);
      diagnostics.textSent(p.textDocument.uri, p.textDocument.version);
    },
    didClose: (p, closed, reopening) => {
      host.notify('textDocument/didClose', p);
      // The server goes back to the disk's text: a change for other files when it held another
      // (not when it is given the same text again at once).
      if (!reopening && closed.disk === undefined) host.changedForOthers(p.textDocument.uri);
      // What the server pushed for the closed text says nothing about a later one.
      diagnostics.forget(p.textDocument.uri);
    },
  });
  const diagnostics = new DiagnosticsCollector({
    documents,
    supportsPullDiagnostics: () => host.supportsPullDiagnostics(),
    exactDiagnostics: host.exactDiagnostics,
    request: (method, params, opts) => host.request(method, params, opts),
    ...(host.catchUp ? { catchUp: () => host.catchUp!() } : {}),
    ...(host.peerSettled ? { peerSettled: (uri: string) => host.peerSettled!(uri) } : {}),
    ...(host.onRegistrationChange ? { onRegistrationChange: (l: () => void) => host.onRegistrationChange!(l) } : {}),
  });
  return { documents, diagnostics };
}

/**
 * A whole-text change as the one edit a server that syncs incrementally is sent by editors: the
 * previous text's whole range replaced. vtsls 0.3 turns a change without a range into a tsserver
 * edit up to a line one past the end, which tsserver refuses ("Debug Failure. Bad line number")
 * and vtsls exits: never send a server that asked for ranges a change without one.
 */
export function asRangedChange(p: DidChangeTextDocumentParams, previous: string): DidChangeTextDocumentParams {
  const lines = splitLines(previous);
  const end = { line: lines.length - 1, character: lines[lines.length - 1]?.length ?? 0 };
  const contentChanges = p.contentChanges.map((c) => ('range' in c ? c : { range: { start: { line: 0, character: 0 }, end }, text: c.text }));
  return { ...p, contentChanges };
}
