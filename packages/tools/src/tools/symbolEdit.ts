import { z } from 'zod';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { symbolTargetInput } from '../symbols/symbolInput.js';
import { symbolBodyEdit } from '../symbols/symbolDefinition.js';
import { insertEdit, type SymbolSite } from '../symbols/symbolEdits.js';
import { isTarget, resolveSymbolTarget, type SymbolTarget } from '../symbols/symbolTarget.js';
import { symbolWriteOutput, symbolWriteText, writeSymbolEdit, type SymbolWriteOut } from '../symbols/symbolWrite.js';
import { defineTool, WRITES } from '../catalog/toolDefinition.js';

export function siteOf(t: SymbolTarget): SymbolSite {
  return { lines: t.text.lines, eol: t.text.eol, range: t.node.range, selectionRange: t.node.selectionRange, family: t.family, extent: t.extent };
}

const text = (r: Partial<Omit<SymbolWriteOut, 'ready'>> & { ready: boolean }) => (!r.ready ? notReadyText(r as unknown as NotReadyResult) : symbolWriteText(r));

export const replaceSymbolBody = defineTool({
  name: 'replace_symbol_body',
  title: 'Replace symbol body',
  description: 'Replaces a symbol\'s definition, or only its body; re-indented, checkpointed; reports new errors.',
  group: 'editing',
  input: () => ({
    ...symbolTargetInput,
    new_body: z.string().describe('The whole new definition (header included) or only the new body.'),
  }),
  output: () => ({ ...symbolWriteOutput, took: z.enum(['definition', 'body']).optional().describe('How new_body was read: the whole definition, or the body (signature kept).') }),
  annotations: WRITES,
  async handler(args, ctx) {
    const t = await resolveSymbolTarget(ctx, args);
    if (!isTarget(t)) return t;
    const name = t.qualified.split('.').pop() ?? t.qualified;
    const { edit, took } = symbolBodyEdit(siteOf(t), name, args.new_body);
    return { ...(await writeSymbolEdit(ctx, t, edit)), took };
  },
  text: (r) => {
    const said = text(r);
    if (!r.ready || !r.took) return said;
    return `${r.took === 'definition' ? 'Took new_body as the whole definition (signature included).' : 'Took new_body as the body (signature kept).'}\n${said}`;
  },
});

function insertTool(side: 'before' | 'after') {
  return defineTool({
    name: `insert_${side}_symbol`,
    title: `Insert ${side} symbol`,
    description: `Inserts code ${side} a symbol${side === 'before' ? ' (above its decorators, doc comment)' : ''} at its indentation; checkpointed; reports new errors.`,
    group: 'editing',
    input: () => ({ ...symbolTargetInput, code: z.string().describe('Re-indented to the symbol\'s level.') }),
    output: () => symbolWriteOutput,
    annotations: WRITES,
    async handler(args, ctx) {
      const t = await resolveSymbolTarget(ctx, args);
      if (!isTarget(t)) return t;
      return writeSymbolEdit(ctx, t, insertEdit(siteOf(t), args.code, side));
    },
    text,
  });
}

export const insertBeforeSymbol = insertTool('before');
export const insertAfterSymbol = insertTool('after');
