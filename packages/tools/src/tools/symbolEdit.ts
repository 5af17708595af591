import { z } from 'zod';
import { notReadyText, type NotReadyResult } from '../readinessGate.js';
import { symbolTargetInput } from '../symbolInput.js';
import { insertEdit, replaceBodyEdit, type SymbolSite } from '../symbolEdits.js';
import { isTarget, resolveSymbolTarget, type SymbolTarget } from '../symbolTarget.js';
import { symbolWriteOutput, symbolWriteText, writeSymbolEdit, type SymbolWriteOut } from '../symbolWrite.js';
import { defineTool, WRITES } from '../toolDefinition.js';

export function siteOf(t: SymbolTarget): SymbolSite {
  return { lines: t.text.lines, eol: t.text.eol, range: t.node.range, selectionRange: t.node.selectionRange, family: t.family, extent: t.extent };
}

const text = (r: Partial<Omit<SymbolWriteOut, 'ready'>> & { ready: boolean }) => (!r.ready ? notReadyText(r as unknown as NotReadyResult) : symbolWriteText(r));

export const replaceSymbolBody = defineTool({
  name: 'replace_symbol_body',
  title: 'Replace symbol body',
  description: 'Replaces a symbol\'s body (signature kept), re-indented; checkpointed; reports new errors.',
  group: 'editing',
  input: () => ({ ...symbolTargetInput, new_body: z.string().describe('Body without the signature.') }),
  output: () => symbolWriteOutput,
  annotations: WRITES,
  async handler(args, ctx) {
    const t = await resolveSymbolTarget(ctx, args);
    if (!isTarget(t)) return t;
    return writeSymbolEdit(ctx, t, replaceBodyEdit(siteOf(t), args.new_body));
  },
  text,
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
