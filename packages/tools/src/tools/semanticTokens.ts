import { z } from 'zod';
import type { SemanticTokens, SemanticTokensLegend, SemanticTokensOptions } from 'vscode-languageserver-protocol';
import { splitLines, UserError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument } from '../project/documentQuery.js';
import { lineWindow, lineWindowInput } from '../output/lineWindow.js';
import { page, pageFields, pageHeader } from '../output/paging.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { filePath, pagingInput, pagingOutput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { decodeSemanticTokens } from '../symbols/semanticTokenDecoding.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

const tokenOut = z.object({
  line: z.number(),
  column: z.number(),
  length: z.number().describe('In characters.'),
  type: z.string(),
  modifiers: z.array(z.string()),
  text: z.string(),
});

/** The server's semantic tokens options: from its initialize answer or a dynamic registration. */
function semanticTokensOptions(conn: LspConnection): SemanticTokensOptions | undefined {
  const stat = conn.capabilities.semanticTokensProvider;
  if (stat) return stat;
  const reg = conn.dynamicRegistrations().find((r) => r.method === 'textDocument/semanticTokens');
  return reg?.registerOptions as SemanticTokensOptions | undefined;
}

export const getSemanticTokens = defineTool({
  name: 'get_semantic_tokens',
  title: 'Semantic tokens',
  description: 'Each token\'s type (class, parameter, …) and modifiers, for a file or line range; paged.',
  group: 'analysis',
  input: () => ({ file_path: filePath, ...lineWindowInput, ...readinessInput, ...pagingInput }),
  output: () => ({ ...readyOutput, ...pagingOutput, tokens: z.array(tokenOut).optional() }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const options = semanticTokensOptions(conn);
    const legend: SemanticTokensLegend | undefined = options?.legend;
    if (!options || !legend) {
      throw new UserError('not_supported', `${conn.server.displayName} does not support get_semantic_tokens (textDocument/semanticTokens) for ${doc.label}. Use list_symbols or inspect_symbol instead.`);
    }
    const text = doc.handle.doc.text;
    const window = lineWindow(text, args, doc.label);
    const byRange = window.given && options.range !== undefined && options.range !== false;
    if (!byRange && !options.full) throw new UserError('not_supported', `${conn.server.displayName} answers semantic tokens only for a range: pass start_line/end_line.`);
    const result = byRange
      ? await conn.request<SemanticTokens | null>('textDocument/semanticTokens/range', { textDocument: { uri }, range: window.range }, { signal: ctx.signal })
      : await conn.request<SemanticTokens | null>('textDocument/semanticTokens/full', { textDocument: { uri } }, { signal: ctx.signal });
    const all = decodeSemanticTokens(result?.data ?? [], legend, splitLines(text)).filter((t) => window.includes(t.line, t.column));
    const p = page(all, args.offset, args.limit, 500);
    return { ready: true, ...pageFields(p), tokens: p.items };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const lines = (r.tokens ?? []).map((t) => `${t.line}:${t.column} ${t.type}${t.modifiers.length ? `[${t.modifiers.join(',')}]` : ''} ${JSON.stringify(t.text)}`);
    return `${pageHeader(r, 'token(s)')}\n${lines.join('\n')}`.trim();
  },
});
