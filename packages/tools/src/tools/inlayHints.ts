import { z } from 'zod';
import type { InlayHint } from 'vscode-languageserver-protocol';
import { fromLspPosition, splitLines, InlayHintKind } from '@agent-lsp/protocol';
import { isNotReady, openReadyDocument, requireSupport } from '../project/documentQuery.js';
import { lineWindow, lineWindowInput } from '../output/lineWindow.js';
import { page, pageFields, pageHeader } from '../output/paging.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { filePath, pagingInput, pagingOutput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

const hintOut = z.object({
  line: z.number(),
  column: z.number().describe('Where the hint sits: before the character at this column.'),
  label: z.string(),
  kind: z.enum(['type', 'parameter']).optional(),
  padding_left: z.boolean().optional(),
  padding_right: z.boolean().optional(),
});
type HintOut = z.infer<typeof hintOut>;

function hintLabel(label: InlayHint['label']): string {
  return typeof label === 'string' ? label : label.map((part) => part.value).join('');
}

export const getInlayHints = defineTool({
  name: 'get_inlay_hints',
  title: 'Inlay hints',
  description: 'The inferred types and parameter names an editor shows inline, for a file or line range.',
  group: 'analysis',
  input: () => ({ file_path: filePath, ...lineWindowInput, ...readinessInput, ...pagingInput }),
  output: () => ({ ...readyOutput, ...pagingOutput, hints: z.array(hintOut).optional() }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    requireSupport(doc, 'textDocument/inlayHint', 'get_inlay_hints', 'inspect_symbol');
    const { conn, uri } = doc.handle;
    const lines = splitLines(doc.handle.doc.text);
    const window = lineWindow(doc.handle.doc.text, args, doc.label);
    const result = await ctx.workspace.query<InlayHint[] | null>(conn, 'textDocument/inlayHint', { textDocument: { uri }, range: window.range }, ctx.signal);
    const all: HintOut[] = (result ?? [])
      .map((h) => {
        const at = fromLspPosition(lines, h.position);
        const out: HintOut = { line: at.line, column: at.column, label: hintLabel(h.label) };
        if (h.kind === InlayHintKind.Type) out.kind = 'type';
        if (h.kind === InlayHintKind.Parameter) out.kind = 'parameter';
        if (h.paddingLeft) out.padding_left = true;
        if (h.paddingRight) out.padding_right = true;
        return out;
      })
      .filter((h) => window.includes(h.line, h.column))
      .sort((a, b) => a.line - b.line || a.column - b.column);
    const p = page(all, args.offset, args.limit, 500);
    return { ready: true, ...pageFields(p), hints: p.items };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const lines = (r.hints ?? []).map((h) => `${h.line}:${h.column} ${h.kind ?? 'hint'} ${JSON.stringify(h.label)}`);
    return `${pageHeader(r, 'inlay hint(s)')}\n${lines.join('\n')}`.trim();
  },
});
