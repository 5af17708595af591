import { z } from 'zod';
import type { Location } from 'vscode-languageserver-protocol';
import { uriToPath } from '@agent-lsp/protocol';
import { requestLocations } from '../project/freshAnswer.js';
import { locationsByFileText, PositionMapper } from '../output/locations.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { location } from '../catalog/schemas.js';
import { symbolTargetInput } from '../symbols/symbolInput.js';
import { deleteEdit } from '../symbols/symbolEdits.js';
import { isTarget, resolveSymbolTarget, type SymbolTarget } from '../symbols/symbolTarget.js';
import { symbolWriteOutput, symbolWriteText, writeSymbolEdit } from '../symbols/symbolWrite.js';
import { defineTool, WRITES, type ToolContext } from '../catalog/toolDefinition.js';
import { siteOf } from './symbolEdit.js';

/** References listed when a delete is refused (the count is always given). */
const REFERENCES_SHOWN = 100;

/** References to the target from outside its own lines (its declaration and recursive uses are not). */
async function outsideReferences(ctx: ToolContext, t: SymbolTarget): Promise<Location[]> {
  const { conn, uri } = t.doc.handle;
  if (!conn.supports('textDocument/references')) return [];
  const params = { textDocument: { uri }, position: t.node.selectionRange.start, context: { includeDeclaration: false } };
  const result = (await requestLocations(conn, ctx.workspace.registry, 'textDocument/references', params, ctx.signal)) as Location[] | null;
  return (result ?? []).filter((l) => l.uri !== uri || l.range.start.line < t.extent.start || l.range.start.line > t.extent.end);
}

export const safeDeleteSymbol = defineTool({
  name: 'safe_delete_symbol',
  title: 'Safely delete symbol',
  description: 'Deletes a symbol with its decorators and doc comment; if referenced, lists the references unless force. Checkpointed.',
  group: 'editing',
  input: () => ({ ...symbolTargetInput, force: z.boolean().optional().describe('Delete even if referenced.') }),
  output: () => ({
    ...symbolWriteOutput,
    refused: z.boolean().optional().describe('Referenced: nothing written.'),
    references_total: z.number().optional(),
    references: z.array(location).optional().describe('Other than the declaration (first 100).'),
  }),
  annotations: WRITES,
  async handler(args, ctx) {
    const t = await resolveSymbolTarget(ctx, args);
    if (!isTarget(t)) return t;
    const refs = await outsideReferences(ctx, t);
    const references = new PositionMapper(ctx.workspace, t.doc.handle.conn).locations(refs);
    if (references.length > 0 && args.force !== true) {
      return { ready: true, dry_run: false, applied: false, files: [], diff: '', symbol: t.qualified, refused: true, references_total: references.length, references: references.slice(0, REFERENCES_SHOWN) };
    }
    const files = [...new Set(refs.map((r) => uriToPath(r.uri)).filter((p): p is string => p !== undefined))];
    const out = await writeSymbolEdit(ctx, t, deleteEdit(siteOf(t)), files);
    return { ...out, references_total: references.length, references: references.slice(0, REFERENCES_SHOWN) };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    if (r.refused) {
      return `Refused: ${r.symbol ?? 'the symbol'} is still referenced ${r.references_total ?? 0} time(s); nothing was written. Remove the uses first, or pass force: true.\n${locationsByFileText(r.references ?? [])}`;
    }
    const forced = (r.references_total ?? 0) > 0 ? `\nDeleted with force although referenced ${r.references_total} time(s):\n${locationsByFileText(r.references ?? [])}` : '';
    return symbolWriteText(r) + forced;
  },
});
