import { z } from 'zod';
import { callGraph, type CallDirection, type CallEntry } from '../analysis/callGraph.js';
import { isNotReady, openReadyDocument, positionIn } from '../project/documentQuery.js';
import { page, pageFields, pageHeader } from '../output/paging.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { pagingInput, pagingOutput, positionInput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { SymbolTrees } from '../symbols/symbolTree.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';
import { concurrentCallerOutput, concurrentCallers } from '../analysis/concurrentCallers.js';
import { partialIndexFields, partialIndexOutput, partialIndexText } from '../project/partialIndex.js';

export const callSiteOutput = z.object({ file: z.string(), line: z.number(), column: z.number() });

export const callEntryOutput = z.object({
  direction: z.enum(['incoming', 'outgoing']),
  level: z.number().describe('1 = direct; 2 = through a level-1 entry (named in via); …'),
  name: z.string(),
  kind: z.string(),
  container: z.string().optional(),
  file: z.string(),
  line: z.number(),
  column: z.number(),
  via: z.string().optional(),
  call_sites: z.array(callSiteOutput).describe('Where the call (or, when derived, the reference) is.'),
});

export const symbolRefOutput = z.object({ name: z.string(), kind: z.string(), file: z.string(), line: z.number(), column: z.number() });

const DEFAULT_CALL_LIMIT = 200;

export function callEntryText(c: CallEntry): string {
  const sites = c.call_sites.map((s) => (s.file === c.file ? `${s.line}:${s.column}` : `${s.file}:${s.line}:${s.column}`)).join(' ');
  const arrow = c.direction === 'incoming' ? '←' : '→';
  const name = c.container ? `${c.container}.${c.name}` : c.name;
  return `${'  '.repeat(c.level - 1)}${arrow} ${name} (${c.kind}) ${c.file}:${c.line}:${c.column}${c.via ? ` via ${c.via}` : ''}${sites ? ` — at ${sites}` : ''}`;
}

export const findCallers = defineTool({
  name: 'find_callers',
  aliases: ['callers'],
  title: 'Find callers (call hierarchy)',
  description: 'Who calls the function at a position (or what it calls), up to 4 levels deep.',
  group: 'navigation',
  input: () => ({
    ...positionInput,
    direction: z.enum(['incoming', 'outgoing', 'both']).optional(),
    depth: z.number().int().min(1).max(4).optional().meta({ default: 1 }),
    cross_concurrent: z.boolean().optional().describe('Go: also callers in other goroutines.'),
    ...readinessInput,
    ...pagingInput,
  }),
  output: () => ({
    ...readyOutput,
    ...pagingOutput,
    symbol: symbolRefOutput.optional(),
    derived_from: z.literal('references').optional().describe('Callers derived from references, not the server\'s call hierarchy.'),
    notes: z.array(z.string()).optional(),
    calls: z.array(callEntryOutput).optional(),
    concurrent_callers: z.array(concurrentCallerOutput).optional().describe('With cross_concurrent: the incoming calls (all pages) that start or run in another goroutine, with how.'),
    ...partialIndexOutput,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const direction = args.direction ?? 'incoming';
    const directions: CallDirection[] = direction === 'both' ? ['incoming', 'outgoing'] : [direction];
    const graph = await callGraph(ctx, doc, positionIn(doc, args), directions, args.depth ?? 1, new SymbolTrees(ctx));
    const p = page(graph.calls, args.offset, args.limit, DEFAULT_CALL_LIMIT);
    const concurrent = args.cross_concurrent ? concurrentCallers(ctx, graph.calls) : undefined;
    const notes = [...graph.notes, ...(concurrent?.notes ?? [])];
    return {
      ready: true,
      ...pageFields(p),
      ...partialIndexFields(doc.handle.conn, doc.asked),
      symbol: graph.symbol,
      ...(graph.derived_from ? { derived_from: graph.derived_from } : {}),
      ...(notes.length > 0 ? { notes } : {}),
      calls: p.items,
      ...(concurrent ? { concurrent_callers: concurrent.callers } : {}),
    };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const s = r.symbol;
    const head = s ? `${s.kind} ${s.name} (${s.file}:${s.line}:${s.column})` : '';
    const lines = (r.calls ?? []).map(callEntryText);
    const concurrent = r.concurrent_callers?.map((c) => `  ${c.name} (${c.file}:${c.line}) — ${c.pattern} at ${c.call_site.file}:${c.call_site.line}:${c.call_site.column}`);
    const concurrentLines = concurrent ? [`${concurrent.length} concurrent call(s):`, ...concurrent] : [];
    return partialIndexText(r.partial) + [head, ...(r.notes ?? []).map((n) => `NOTE: ${n}`), `${pageHeader(r, r.derived_from ? 'caller(s), derived from references' : 'call(s)')}`, ...lines, ...concurrentLines].filter(Boolean).join('\n');
  },
});
