import { z } from 'zod';
import { SETTLED_BY, type LspConnection, type ServerDefinition } from '@agent-lsp/lsp';
import { BrokerDocumentStatusRequest } from '@agent-lsp/protocol';
import { isNotReady, openReadyDocument } from '../project/documentQuery.js';
import { failedServersText, serverOutcome, serverOutcomeOutput } from '../project/fanOut.js';
import { diagnosticText } from '../output/diagnosticText.js';
import { DIAGNOSTIC_GROUPINGS, enclosingSymbol, groupDiagnostics, groupedDiagnostic, groupOut, symbolSpans } from '../output/diagnosticGroups.js';
import { PositionMapper } from '../output/locations.js';
import { page, pageHeader } from '../output/paging.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { pagingInput, pagingOutput, readinessInput, readyOutput, type DiagnosticOut } from '../catalog/schemas.js';
import { settledDiagnostics } from '../project/settledDiagnostics.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

const DIAGNOSTICS_TIMEOUT_MS = 30_000;

const fileSummary = z.object({
  file: z.string(),
  settled_by: z.enum(SETTLED_BY).describe('How agent-lsp knew the diagnostics describe the current text.'),
  errors: z.number(),
  warnings: z.number(),
  other_text: z.boolean().optional().describe('Another client (an editor) holds unsaved text of this file: this answer is for the disk.'),
});
type FileSummary = z.infer<typeof fileSummary>;

export const getDiagnostics = defineTool({
  name: 'get_diagnostics',
  title: 'Get diagnostics',
  description: 'Errors and warnings of a file as it is on disk now (without file_path: of every open file).',
  group: 'analysis',
  input: () => ({
    file_path: z.string().optional().describe('Omit for every open file.'),
    group_by: z.enum(DIAGNOSTIC_GROUPINGS).optional().describe('symbol: by enclosing function/class.'),
    ...readinessInput,
    ...pagingInput,
  }),
  output: () => ({
    ...readyOutput,
    ...pagingOutput,
    errors: z.number().optional(),
    warnings: z.number().optional(),
    files: z.array(fileSummary).optional(),
    servers: z.array(serverOutcomeOutput).optional().describe('Without file_path: every server asked; one with an error gave no answer (complete is then false).'),
    groups: z.array(groupOut).optional().describe('With group_by: every group and its counts, in the order of diagnostics.'),
    diagnostics: z.array(groupedDiagnostic).optional(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const targets: { conn: LspConnection; uri: string }[] = [];
    // Without file_path every running server is asked: one that fails is reported in `servers`
    // and the others' diagnostics still come back (complete: false).
    const asked = new Map<ServerDefinition, unknown>();
    const failed = (conn: LspConnection, err: unknown) => {
      if (args.file_path !== undefined || ctx.signal.aborted) throw err;
      asked.set(conn.server, err ?? new Error('failed'));
    };
    if (args.file_path !== undefined) {
      const doc = await openReadyDocument(ctx, { ...args, file_path: args.file_path });
      if (isNotReady(doc)) return doc;
      targets.push({ conn: doc.handle.conn, uri: doc.handle.uri });
    } else {
      for (const conn of await ctx.workspace.liveConnections()) {
        asked.set(conn.server, undefined);
        try {
          const notReady = await awaitReady(conn, args, ctx);
          if (notReady) return notReady;
        } catch (err) {
          failed(conn, err);
          continue;
        }
        for (const uri of conn.documents.uris()) targets.push({ conn, uri });
      }
    }
    const all: DiagnosticOut[] = [];
    const symbolOf = new Map<DiagnosticOut, string>();
    const files: FileSummary[] = [];
    for (const { conn, uri } of targets) {
      if (asked.get(conn.server) !== undefined) continue;
      let settled;
      try {
        settled = await settledDiagnostics(ctx, conn, uri, DIAGNOSTICS_TIMEOUT_MS);
      } catch (err) {
        failed(conn, err);
        continue;
      }
      const mapper = new PositionMapper(ctx.workspace, conn);
      const diags = settled.diagnostics.map((d) => mapper.diagnostic(uri, d)).sort((a, b) => a.line - b.line || a.column - b.column);
      all.push(...diags);
      if (args.group_by === 'symbol' && diags.length > 0) {
        const spans = await symbolSpans(ctx, conn, uri);
        for (const d of diags) symbolOf.set(d, enclosingSymbol(spans, d));
      }
      const summary: FileSummary = {
        file: ctx.workspace.displayUri(uri),
        settled_by: settled.settledBy,
        errors: diags.filter((d) => d.severity === 'error').length,
        warnings: diags.filter((d) => d.severity === 'warning').length,
      };
      if (await heldWithOtherText(conn, uri)) summary.other_text = true;
      files.push(summary);
    }
    // Documents that settled before their server failed keep their (true) diagnostics.
    const failedServers = [...asked.values()].filter((err) => err !== undefined).length;
    const servers = [...asked].map(([server, err]) => serverOutcome(server, err));
    const grouped = args.group_by ? groupDiagnostics(all, args.group_by, (d) => symbolOf.get(d) ?? '') : undefined;
    const p = page(grouped?.diagnostics ?? all, args.offset, args.limit, 200);
    return {
      ready: true,
      total: p.total,
      // A file the server never confirmed (timeout) is not a complete answer either.
      complete: p.complete && failedServers === 0 && files.every((f) => f.settled_by !== 'timeout'),
      offset: p.offset,
      limit: p.limit,
      returned: p.returned,
      errors: all.filter((d) => d.severity === 'error').length,
      warnings: all.filter((d) => d.severity === 'warning').length,
      files,
      ...(args.file_path === undefined ? { servers } : {}),
      ...(grouped ? { groups: grouped.groups } : {}),
      diagnostics: p.items,
    };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const files = r.files ?? [];
    if (files.length === 0) return [...failedServersText(r.servers), 'No documents are open: pass file_path.'].join('\n');
    const head = `${r.errors ?? 0} error(s), ${r.warnings ?? 0} warning(s) in ${files.length} file(s) (settled by ${[...new Set(files.map((f) => f.settled_by))].join(', ')}).`;
    const body: string[] = [];
    let current: string | undefined;
    for (const d of r.diagnostics ?? []) {
      if (d.group !== undefined && d.group !== current) {
        current = d.group;
        const g = r.groups?.find((x) => x.group === current);
        body.push(`## ${current} (${g?.count ?? 0})`);
      }
      body.push(diagnosticText(d));
    }
    // A wait that ended without the server confirming anything is no answer: never a plain "0 error(s)".
    const unconfirmed = files.filter((f) => f.settled_by === 'timeout').map((f) => `${f.file}: NOT SETTLED — ${DIAGNOSTICS_TIMEOUT_MS / 1000} s passed without the server confirming its diagnostics for this text; what is listed is only what it last published (perhaps nothing yet), not an answer. Call again.`);
    const others = files.filter((f) => f.other_text).map((f) => `${f.file}: another client (an editor) has unsaved changes; these diagnostics are for the disk text.`);
    return [...failedServersText(r.servers), ...unconfirmed, head, ...others, (r.total ?? 0) > 0 ? pageHeader(r, 'diagnostic(s)') : '', ...body].filter(Boolean).join('\n');
  },
});

export const diagnosticsTools = [getDiagnostics];

/** Through a broker: whether another client (an editor) holds a different, unsaved text of the file. */
async function heldWithOtherText(conn: LspConnection, uri: string): Promise<boolean> {
  if (!conn.broker) return false;
  // A broker of an older protocol does not know the request: nothing to say then.
  const status = await conn.request(BrokerDocumentStatusRequest.type, { uri }, { timeoutMs: 5000 }).catch(() => undefined);
  return (status?.otherTexts ?? 0) > 0;
}
