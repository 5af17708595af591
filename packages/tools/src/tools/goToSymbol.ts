import { z } from 'zod';
import { isWithin, uriToPath, UserError } from '@agent-lsp/protocol';
import { resolveDirectory } from '@agent-lsp/workspace';
import { isNotReady, openReadyDocument } from '../project/documentQuery.js';
import { PositionMapper } from '../output/locations.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { readinessInput, readyOutput } from '../catalog/schemas.js';
import { symbolPathInput } from '../symbols/symbolInput.js';
import { symbolKindName } from '../symbols/symbolKinds.js';
import { candidatesInFile, findSymbolCandidates, type SymbolCandidate } from '../symbols/symbolLocator.js';
import { parseSymbolPath } from '../symbols/symbolPath.js';
import { unknownPath } from '../symbols/symbolTarget.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';
import { sessionRoot } from './simulationArgs.js';

const definitionOut = z.object({
  qualified_name: z.string(),
  kind: z.string(),
  match: z.enum(['exact', 'suffix']).describe('exact: whole path; suffix: its tail.'),
  file: z.string(),
  line: z.number(),
  column: z.number(),
  end_line: z.number(),
  end_column: z.number(),
});

export const goToSymbol = defineTool({
  name: 'go_to_symbol',
  title: 'Go to symbol by path',
  description: 'Definition(s) of a dotted symbol path, exact container matches first; says when ambiguous.',
  group: 'navigation',
  input: () => ({
    symbol_path: symbolPathInput,
    file_path: z.string().optional().describe('Search only this file.'),
    language_id: z.string().optional().describe('Search only this language.'),
    workspace_root: z.string().optional().describe('Search only this open folder.'),
    ...readinessInput,
  }),
  output: () => ({
    ...readyOutput,
    total: z.number().optional(),
    ambiguous: z.boolean().optional().describe('Several match equally, or files were left unexamined.'),
    complete: z.boolean().optional().describe('Every file declaring the name was examined.'),
    unexamined_files: z.number().optional(),
    definitions: z.array(definitionOut).optional(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const parsed = parseSymbolPath(args.symbol_path);
    if (parsed.segments.length === 0) throw new UserError('invalid_argument', 'symbol_path is empty: give a dotted path such as Class.method.');
    const file = args.file_path ?? parsed.file;
    // The original's workspace_root: a folder of the workspace (refused when none holds it); only its definitions.
    const folder = args.workspace_root !== undefined ? resolveDirectory(args.workspace_root, 'workspace_root') : undefined;
    if (args.workspace_root !== undefined) await sessionRoot(ctx, args.workspace_root);
    let found: { candidates: SymbolCandidate[]; near: string[]; unexamined: number };
    if (file !== undefined) {
      const doc = await openReadyDocument(ctx, { ...args, file_path: file });
      if (isNotReady(doc)) return doc;
      found = { ...(await candidatesInFile(ctx, doc, args.symbol_path)), unexamined: 0 };
    } else {
      const located = await findSymbolCandidates(ctx, parsed, args);
      if ('ready' in located) return located;
      found = located;
    }
    if (folder !== undefined) found.candidates = found.candidates.filter((c) => isWithin(folder, uriToPath(c.doc.handle.uri) ?? ''));
    if (found.candidates.length === 0) throw unknownPath(args.symbol_path, file ?? 'the workspace', found.near, found.unexamined);
    const definitions = found.candidates.map((c) => ({
      qualified_name: c.qualified,
      kind: symbolKindName(c.node.kind),
      match: c.rank === 0 ? ('exact' as const) : ('suffix' as const),
      ...new PositionMapper(ctx.workspace, c.doc.handle.conn).location(c.doc.handle.uri, c.node.selectionRange),
    }));
    const best = definitions.filter((d) => d.match === definitions[0]?.match).length;
    const unexamined = found.unexamined > 0 ? { unexamined_files: found.unexamined } : {};
    return { ready: true, total: definitions.length, ambiguous: best > 1 || found.unexamined > 0, complete: found.unexamined === 0, ...unexamined, definitions };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const defs = r.definitions ?? [];
    const count = `${r.unexamined_files ? 'at least ' : ''}${defs.length}`;
    const head = r.ambiguous ? `Ambiguous: ${count} definitions match; qualify the path (Class.method, file:Name) to pick one:` : `${defs.length} definition(s):`;
    const lines = [head, ...defs.map((d) => `${d.kind} ${d.qualified_name} ${d.file}:${d.line}:${d.column}${d.match === 'suffix' ? ' (suffix match)' : ''}`)];
    if (r.unexamined_files) lines.push(`${r.unexamined_files} more file(s) declare the name and were not examined: name the file (file:Class.method) to search it.`);
    return lines.join('\n');
  },
});
