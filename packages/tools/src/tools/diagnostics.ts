import { z } from 'zod';
import { SETTLED_BY, type LspConnection } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument } from '../documentQuery.js';
import { diagnosticText, PositionMapper } from '../locations.js';
import { page, pageHeader } from '../paging.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../readinessGate.js';
import { diagnostic, pagingInput, pagingOutput, readinessInput, readyOutput, type DiagnosticOut } from '../schemas.js';
import { defineTool, READ_ONLY } from '../toolDefinition.js';

const DIAGNOSTICS_TIMEOUT_MS = 30_000;

const fileSummary = z.object({
  file: z.string(),
  settled_by: z.enum(SETTLED_BY).describe('How agent-lsp knew the diagnostics describe the current text.'),
  errors: z.number(),
  warnings: z.number(),
});
type FileSummary = z.infer<typeof fileSummary>;

export const getDiagnostics = defineTool({
  name: 'get_diagnostics',
  title: 'Get diagnostics',
  description: 'Errors and warnings of a file as it is on disk now (without file_path: of every open file).',
  group: 'analysis',
  input: { file_path: z.string().optional().describe('Omit for every open file.'), ...readinessInput, ...pagingInput },
  output: {
    ...readyOutput,
    ...pagingOutput,
    errors: z.number().optional(),
    warnings: z.number().optional(),
    files: z.array(fileSummary).optional(),
    diagnostics: z.array(diagnostic).optional(),
  },
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const targets: { conn: LspConnection; uri: string }[] = [];
    if (args.file_path !== undefined) {
      const doc = await openReadyDocument(ctx, { ...args, file_path: args.file_path });
      if (isNotReady(doc)) return doc;
      targets.push({ conn: doc.handle.conn, uri: doc.handle.uri });
    } else {
      for (const conn of await ctx.workspace.liveConnections()) {
        const notReady = await awaitReady(conn, args, ctx);
        if (notReady) return notReady;
        for (const uri of conn.documents.uris()) targets.push({ conn, uri });
      }
    }
    const all: DiagnosticOut[] = [];
    const files: FileSummary[] = [];
    for (const { conn, uri } of targets) {
      const settled = await conn.diagnostics.settle(uri, DIAGNOSTICS_TIMEOUT_MS);
      const mapper = new PositionMapper(ctx.workspace, conn);
      const diags = settled.diagnostics.map((d) => mapper.diagnostic(uri, d)).sort((a, b) => a.line - b.line || a.column - b.column);
      all.push(...diags);
      files.push({
        file: ctx.workspace.displayUri(uri),
        settled_by: settled.settledBy,
        errors: diags.filter((d) => d.severity === 'error').length,
        warnings: diags.filter((d) => d.severity === 'warning').length,
      });
    }
    const p = page(all, args.offset, args.limit, 200);
    return {
      ready: true,
      total: p.total,
      complete: p.complete,
      offset: p.offset,
      limit: p.limit,
      returned: p.returned,
      errors: all.filter((d) => d.severity === 'error').length,
      warnings: all.filter((d) => d.severity === 'warning').length,
      files,
      diagnostics: p.items,
    };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const files = r.files ?? [];
    if (files.length === 0) return 'No documents are open: pass file_path.';
    const head = `${r.errors ?? 0} error(s), ${r.warnings ?? 0} warning(s) in ${files.length} file(s) (settled by ${[...new Set(files.map((f) => f.settled_by))].join(', ')}).`;
    const body = (r.diagnostics ?? []).map((d) => diagnosticText(d));
    return [head, (r.total ?? 0) > 0 ? pageHeader(r, 'diagnostic(s)') : '', ...body].filter(Boolean).join('\n');
  },
});

export const diagnosticsTools = [getDiagnostics];
