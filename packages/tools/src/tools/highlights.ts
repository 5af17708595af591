import { z } from 'zod';
import { DocumentHighlightKind } from '@agent-lsp/protocol';
import type { DocumentHighlight } from 'vscode-languageserver-protocol';
import { isNotReady, openReadyDocument, positionIn, requireSupport } from '../project/documentQuery.js';
import { PositionMapper } from '../output/locations.js';
import { page, pageFields, pageHeader } from '../output/paging.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { pagingInput, pagingOutput, positionInput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

const KIND_NAMES: Record<DocumentHighlightKind, 'text' | 'read' | 'write'> = {
  [DocumentHighlightKind.Text]: 'text',
  [DocumentHighlightKind.Read]: 'read',
  [DocumentHighlightKind.Write]: 'write',
};

const highlightOut = z.object({
  line: z.number(),
  column: z.number(),
  end_line: z.number(),
  end_column: z.number(),
  kind: z.enum(['text', 'read', 'write']),
});

export const getDocumentHighlights = defineTool({
  name: 'get_document_highlights',
  title: 'Document highlights',
  description: 'Every occurrence of the symbol at a position in the same file, each marked read, write or text.',
  group: 'navigation',
  input: () => ({ ...positionInput, ...readinessInput, ...pagingInput }),
  output: () => ({ ...readyOutput, ...pagingOutput, file: z.string().optional(), highlights: z.array(highlightOut).optional() }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    requireSupport(doc, 'textDocument/documentHighlight', 'get_document_highlights', 'find_references');
    const { conn, uri } = doc.handle;
    const position = positionIn(doc, args);
    const result = await ctx.workspace.query<DocumentHighlight[] | null>(conn, 'textDocument/documentHighlight', { textDocument: { uri }, position }, ctx.signal);
    const mapper = new PositionMapper(ctx.workspace, conn);
    const all = (result ?? [])
      .map((h) => ({ ...mapper.range(uri, h.range), kind: KIND_NAMES[h.kind ?? DocumentHighlightKind.Text] ?? 'text' }))
      .sort((a, b) => a.line - b.line || a.column - b.column);
    const p = page(all, args.offset, args.limit, 500);
    return { ready: true, ...pageFields(p), file: doc.label, highlights: p.items };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const lines = (r.highlights ?? []).map((h) => `${h.line}:${h.column}-${h.end_line}:${h.end_column} ${h.kind}`);
    return `${pageHeader(r, `highlight(s) in ${r.file ?? 'the file'}`)}\n${lines.join('\n')}`.trim();
  },
});
