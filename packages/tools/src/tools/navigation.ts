import { z } from 'zod';
import { withAnswerCache } from '../answerCache/cachedAnswers.js';
import { startupMark } from '@agent-lsp/protocol';
import { isNotReady, openReadyDocument, positionIn, requireSupport } from '../project/documentQuery.js';
import { requestLocations } from '../project/freshAnswer.js';
import { partialIndexFields, partialIndexOutput, partialIndexText } from '../project/partialIndex.js';
import { locationsByFileText, PositionMapper } from '../output/locations.js';
import { pageFields, pageHeader } from '../output/paging.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { location, pagingInput, pagingOutput, positionInput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY, type AnyToolDefinition } from '../catalog/toolDefinition.js';

/** Big enough for nearly every answer, small enough to stay far below a 25k-token result cap. */
export const DEFAULT_LOCATION_LIMIT = 300;

const locationListOutput = {
  ...readyOutput,
  ...pagingOutput,
  files: z.number().optional().describe('How many distinct files the whole answer spans.'),
  locations: z.array(location).optional(),
  answered_by: z.string().optional().describe('Set when the server lacks the request and another answered: that request\'s method.'),
  ...partialIndexOutput,
};

interface LocationToolSpec {
  name: string;
  method: string;
  title: string;
  description: string;
  noun: string;
  extraInput?: z.ZodRawShape;
  extraParams?: (args: Record<string, unknown>) => Record<string, unknown>;
  /** The tool to suggest when the server lacks this one. */
  alternative?: string;
  /** A request that answers the same question where the server lacks `method` (said in the answer). */
  fallback?: string;
}

/** A location tool, its answers kept in the answer cache where the workspace opted in (see answerCache/). */
function locationTool(spec: LocationToolSpec): AnyToolDefinition {
  return withAnswerCache(locationToolLive(spec));
}

function locationToolLive(spec: LocationToolSpec): AnyToolDefinition {
  return defineTool({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    group: 'navigation',
    input: () => ({ ...positionInput, ...spec.extraInput, ...readinessInput, ...pagingInput }),
    output: () => locationListOutput,
    annotations: READ_ONLY,
    async handler(args, ctx) {
      const doc = await openReadyDocument(ctx, args);
      if (isNotReady(doc)) return doc;
      startupMark(`${spec.name} document ready`);
      const fallback = spec.fallback !== undefined && !doc.handle.conn.supports(spec.method) && doc.handle.conn.supports(spec.fallback) ? spec.fallback : undefined;
      const method = fallback ?? spec.method;
      requireSupport(doc, method, spec.name, spec.alternative);
      const { conn, uri } = doc.handle;
      const position = positionIn(doc, args);
      const params = { textDocument: { uri }, position, ...spec.extraParams?.(args) };
      const result = await requestLocations(conn, ctx.workspace.registry, method, params, ctx.signal, (c, m, q, sig) => ctx.workspace.query(c, m, q, sig));
      startupMark(`${spec.name} answer received`);
      const { page: p, files } = new PositionMapper(ctx.workspace, conn).locationsPage(result, args.offset, args.limit, DEFAULT_LOCATION_LIMIT);
      startupMark(`${spec.name} converted`);
      return { ready: true, ...pageFields(p), ...partialIndexFields(conn, doc.asked), files, locations: p.items, ...(fallback ? { answered_by: fallback } : {}) };
    },
    text: (r) => {
      if (!r.ready) return notReadyText(r as NotReadyResult);
      const by = r.answered_by ? `\n(The server has no ${spec.method}; ${r.answered_by} answered: in this language a symbol's definition is its declaration.)` : '';
      return partialIndexText(r.partial) + `${pageHeader(r, `${spec.noun} in ${r.files ?? 0} file(s)`)}\n${locationsByFileText(r.locations ?? [])}`.trim() + by;
    },
  });
}

export const goToDefinition = locationTool({ name: 'go_to_definition', method: 'textDocument/definition', title: 'Go to definition', noun: 'definition(s)', description: 'Where the symbol at a position is defined.' });
export const goToTypeDefinition = locationTool({ name: 'go_to_type_definition', alternative: 'go_to_definition', method: 'textDocument/typeDefinition', title: 'Go to type definition', noun: 'type definition(s)', description: 'Where the type of the symbol at a position is defined.' });
export const goToImplementation = locationTool({ name: 'go_to_implementation', alternative: 'go_to_definition', method: 'textDocument/implementation', title: 'Go to implementation', noun: 'implementation(s)', description: 'The implementations of the interface, method or type at a position.' });
export const goToDeclaration = locationTool({ name: 'go_to_declaration', alternative: 'go_to_definition', fallback: 'textDocument/definition', method: 'textDocument/declaration', title: 'Go to declaration', noun: 'declaration(s)', description: 'Where the symbol at a position is declared (C/C++: the header).' });

export const findReferences = locationTool({
  name: 'find_references',
  method: 'textDocument/references',
  title: 'Find references',
  noun: 'reference(s)',
  description: 'Every reference to the symbol at a position, workspace-wide, grouped by file; paged.',
  extraInput: { include_declaration: z.boolean().optional().meta({ default: true }) },
  extraParams: (args) => ({ context: { includeDeclaration: args['include_declaration'] ?? true } }),
});

export const navigationTools = [goToDefinition, goToTypeDefinition, goToImplementation, goToDeclaration, findReferences];
