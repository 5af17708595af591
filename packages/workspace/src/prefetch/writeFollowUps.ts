import type { LspConnection } from '@agent-lsp/lsp';
import { importsOf } from './importers.js';
import type { Prediction } from './predictionRules.js';

/** The version of each open document, per connection, before a writing call (see diagnosticsAfterWrite). */
export type DocumentVersions = Map<LspConnection, Map<string, number>>;

/** Documents whose diagnostics a write makes worth asking for (the edited ones first). */
const MAX_DIAGNOSTICS_AFTER_WRITE = 3;

export function versionsOf(conns: readonly LspConnection[]): DocumentVersions {
  const out: DocumentVersions = new Map();
  for (const conn of conns) out.set(conn, new Map(conn.documents.uris().map((u) => [u, conn.documents.get(u)?.version ?? -1])));
  return out;
}

/**
 * The diagnostic pulls an agent makes after a write: of the documents it holds open whose version
 * the write changed, then of the other open documents whose import lines name an edited file's
 * module. Only servers that answer pulls; only documents the agent opened (never internal ones).
 */
export function diagnosticsAfterWrite(conns: readonly LspConnection[], before: DocumentVersions): { conn: LspConnection; prediction: Prediction }[] {
  const due: { conn: LspConnection; prediction: Prediction }[] = [];
  const pull = (conn: LspConnection, uri: string, rule: string, confidence: number) =>
    due.push({ conn, prediction: { rule, method: 'textDocument/diagnostic', params: { textDocument: { uri } }, confidence } });
  for (const conn of conns) {
    if (!conn.isAlive || !conn.supportsPullDiagnostics()) continue;
    const was = before.get(conn) ?? new Map<string, number>();
    const held = conn.documents.uris().filter((u) => {
      const d = conn.documents.get(u);
      return d !== undefined && !d.internal && d.disk !== undefined;
    });
    const edited = held.filter((u) => conn.documents.get(u)?.version !== was.get(u));
    for (const uri of edited) pull(conn, uri, 'edit→diagnostics', 0.7);
    for (const uri of held) {
      if (edited.includes(uri)) continue;
      const text = conn.documents.get(uri)?.text ?? '';
      if (edited.some((e) => importsOf(text, uri, e))) pull(conn, uri, 'edit→importer diagnostics', 0.55);
    }
  }
  return due.slice(0, MAX_DIAGNOSTICS_AFTER_WRITE);
}
