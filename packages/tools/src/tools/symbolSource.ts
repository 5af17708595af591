import { z } from 'zod';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { readyOutput } from '../catalog/schemas.js';
import { symbolTargetInput } from '../symbols/symbolInput.js';
import { symbolKindName } from '../symbols/symbolKinds.js';
import { isTarget, resolveSymbolTarget } from '../symbols/symbolTarget.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

export const getSymbolSource = defineTool({
  name: 'get_symbol_source',
  title: 'Get symbol source',
  description: 'A symbol\'s source with decorators and doc comment, and its line range (by symbol_path or position).',
  group: 'navigation',
  input: () => symbolTargetInput,
  output: () => ({
    ...readyOutput,
    name: z.string().optional(),
    qualified_name: z.string().optional(),
    kind: z.string().optional(),
    file: z.string().optional(),
    start_line: z.number().optional().describe('1-based.'),
    end_line: z.number().optional(),
    source: z.string().optional().describe('Lines start_line..end_line.'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const target = await resolveSymbolTarget(ctx, args);
    if (!isTarget(target)) return target;
    const { start, end } = target.extent;
    return {
      ready: true,
      name: target.node.name,
      qualified_name: target.qualified,
      kind: symbolKindName(target.node.kind),
      file: target.doc.label,
      start_line: start + 1,
      end_line: end + 1,
      source: target.text.lines.slice(start, end + 1).join(target.text.eol),
    };
  },
  text: (r) => (!r.ready ? notReadyText(r as NotReadyResult) : `${r.kind ?? ''} ${r.qualified_name ?? ''} ${r.file ?? ''}:${r.start_line}-${r.end_line}\n${r.source ?? ''}`),
});
