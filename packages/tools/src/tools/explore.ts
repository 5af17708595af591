import { z } from 'zod';
import type { Hover } from 'vscode-languageserver-protocol';
import { callGraph } from '../analysis/callGraph.js';
import { isNotReady, openReadyDocument, positionIn } from '../project/documentQuery.js';
import { requestLocations } from '../project/freshAnswer.js';
import { locationsByFileText, PositionMapper } from '../output/locations.js';
import { page } from '../output/paging.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { location, positionInput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { SymbolTrees } from '../symbols/symbolTree.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';
import { callEntryOutput, callEntryText, symbolRefOutput } from './callHierarchy.js';
import { hoverText } from './symbols.js';


const DEFAULT_REFERENCE_LIMIT = 20;

export const exploreSymbol = defineTool({
  name: 'explore_symbol',
  aliases: ['explore'],
  title: 'Explore symbol',
  description: 'Hover, definition, implementations, callers and first references of the symbol at a position, in one call.',
  group: 'navigation',
  input: () => ({
    ...positionInput,
    reference_limit: z.number().int().nonnegative().optional().describe('References listed.').meta({ default: 20 }),
    ...readinessInput,
  }),
  output: () => ({
    ...readyOutput,
    symbol: symbolRefOutput.optional(),
    hover: z.string().optional(),
    definitions: z.array(location).optional(),
    implementations: z.array(location).optional().describe('Absent when the server has no implementation request, or refused it here (notes).'),
    callers: z.array(callEntryOutput).optional(),
    callers_derived_from: z.literal('references').optional(),
    references_total: z.number().optional().describe('Every reference, declaration excluded.'),
    references: z.array(location).optional().describe('The first reference_limit (find_references pages the rest).'),
    notes: z.array(z.string()).optional(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const position = positionIn(doc, args);
    const mapper = new PositionMapper(ctx.workspace, conn);
    const at = { textDocument: { uri }, position };
    const locs = async (method: string, extra: Record<string, unknown> = {}) =>
      conn.supports(method) ? mapper.locations(await requestLocations(conn, ctx.workspace.registry, method, { ...at, ...extra }, ctx.signal, (c, m, q, sig) => ctx.workspace.query(c, m, q, sig))) : undefined;
    // The call graph first: it refuses a position on whitespace or a keyword with a clear message.
    const graph = await callGraph(ctx, doc, position, ['incoming'], 1, new SymbolTrees(ctx));
    const hover = conn.supports('textDocument/hover') ? await ctx.workspace.query<Hover | null>(conn, 'textDocument/hover', at, ctx.signal) : null;
    const definitions = (await locs('textDocument/definition')) ?? [];
    // A server may refuse implementations for this kind of symbol (gopls: "Inspect is a function,
    // not a method"): the rest of the answer stands, and a note says what the server said.
    const notes = [...graph.notes];
    const implementations = await locs('textDocument/implementation').catch((err: unknown) => {
      if (ctx.signal.aborted) throw err;
      notes.push(`${conn.server.displayName} gave no implementations here: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    });
    const references = (await locs('textDocument/references', { context: { includeDeclaration: false } })) ?? [];
    const p = page(references, 0, args.reference_limit, DEFAULT_REFERENCE_LIMIT);
    return {
      ready: true,
      symbol: graph.symbol,
      ...(hover ? { hover: hoverText(hover.contents).trim() } : {}),
      definitions,
      ...(implementations ? { implementations } : {}),
      callers: graph.calls,
      ...(graph.derived_from ? { callers_derived_from: graph.derived_from } : {}),
      references_total: p.total,
      references: p.items,
      ...(notes.length > 0 ? { notes } : {}),
    };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const s = r.symbol;
    const out: string[] = [];
    if (s) out.push(`${s.kind} ${s.name} (${s.file}:${s.line}:${s.column})`);
    if (r.hover) out.push(r.hover);
    out.push(`definition: ${(r.definitions ?? []).map((d) => `${d.file}:${d.line}:${d.column}`).join(' ') || 'none'}`);
    if (r.implementations) out.push(`implementations: ${r.implementations.map((d) => `${d.file}:${d.line}:${d.column}`).join(' ') || 'none'}`);
    out.push(`callers (${r.callers?.length ?? 0}${r.callers_derived_from ? ', derived from references' : ''}):`, ...(r.callers ?? []).map(callEntryText));
    const shown = r.references?.length ?? 0;
    out.push(`references: ${r.references_total ?? 0}${shown < (r.references_total ?? 0) ? ` (first ${shown}; find_references pages the rest)` : ''}`);
    if (shown > 0) out.push(locationsByFileText(r.references ?? []));
    for (const n of r.notes ?? []) out.push(`NOTE: ${n}`);
    return out.join('\n');
  },
});
