import { z } from 'zod';
import { isNotReady, openReadyDocument, positionIn } from '../project/documentQuery.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { positionInput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { SymbolTrees } from '../symbols/symbolTree.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';
import { typeGraph, type TypeDirection, type TypeEntry } from '../analysis/typeGraph.js';
import { symbolRefOutput } from './callHierarchy.js';
import { indexPartial, partialIndexOutput, partialIndexText } from '../project/partialIndex.js';

const typeEntryOutput = z.object({
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number(),
  column: z.number(),
  level: z.number().describe('1 = direct; 2 = through the entry named in via; …'),
  via: z.string().optional(),
});

function entriesText(title: string, list: readonly TypeEntry[] | undefined): string[] {
  if (!list) return [];
  if (list.length === 0) return [`${title}: none`];
  return [`${title}:`, ...list.map((t) => `${'  '.repeat(t.level)}${t.kind} ${t.name} ${t.file}:${t.line}:${t.column}${t.via ? ` via ${t.via}` : ''}`)];
}

export const typeHierarchy = defineTool({
  name: 'type_hierarchy',
  title: 'Type hierarchy',
  description: 'Supertypes and subtypes of the class, interface or struct at a position, transitively (4 levels).',
  group: 'navigation',
  input: () => ({
    ...positionInput,
    direction: z.enum(['supertypes', 'subtypes', 'both']).optional().meta({ default: 'both' }),
    ...readinessInput,
  }),
  output: () => ({
    ...readyOutput,
    symbol: symbolRefOutput.optional(),
    derived_from: z.enum(['class_heads', 'implementations']).optional().describe('Not the server\'s type hierarchy: derived from class heads, or (Go) implementations.'),
    supertypes: z.array(typeEntryOutput).optional(),
    subtypes: z.array(typeEntryOutput).optional(),
    ...partialIndexOutput,
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const direction = args.direction ?? 'both';
    const directions: TypeDirection[] = direction === 'both' ? ['supertypes', 'subtypes'] : [direction];
    const graph = await typeGraph(ctx, doc, positionIn(doc, args), directions, new SymbolTrees(ctx));
    const partial = indexPartial(doc.handle.conn, doc.asked);
    return { ready: true, ...graph, ...(partial !== undefined ? { partial } : {}) };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const s = r.symbol;
    const head = s ? `${s.kind} ${s.name} (${s.file}:${s.line}:${s.column})${r.derived_from ? ` — derived from ${r.derived_from === 'class_heads' ? 'class heads' : 'implementations'} (the server has no type hierarchy)` : ''}` : '';
    return partialIndexText(r.partial) + [head, ...entriesText('supertypes', r.supertypes), ...entriesText('subtypes', r.subtypes)].join('\n');
  },
});
