import { z } from 'zod';
import type { CompletionItem, CompletionList, MarkupContent, SignatureHelp } from 'vscode-languageserver-protocol';
import { isNotReady, openReadyDocument, positionIn } from '../project/documentQuery.js';
import { page, pageHeader } from '../output/paging.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { pagingInput, pagingOutput, positionInput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { completionKindName } from '../symbols/symbolKinds.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';
import { suggestFixes } from './fixes.js';

function docString(d: string | MarkupContent | undefined): string | undefined {
  if (d === undefined) return undefined;
  return typeof d === 'string' ? d : d.value;
}

const completionOut = z.object({
  label: z.string(),
  kind: z.string().optional(),
  detail: z.string().optional(),
  documentation: z.string().optional(),
  insert_text: z.string().optional(),
});
type CompletionOut = z.infer<typeof completionOut>;

export const getCompletions = defineTool({
  name: 'get_completions',
  title: 'Completions',
  description: 'The completions at a position, in the server\'s order.',
  group: 'analysis',
  input: () => ({ ...positionInput, ...readinessInput, ...pagingInput }),
  output: () => ({ ...readyOutput, ...pagingOutput, is_incomplete: z.boolean().optional(), items: z.array(completionOut).optional() }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const result = await conn.request<CompletionItem[] | CompletionList | null>(
      'textDocument/completion',
      { textDocument: { uri }, position: positionIn(doc, args), context: { triggerKind: 1 } },
      { signal: ctx.signal },
    );
    const items = Array.isArray(result) ? result : (result?.items ?? []);
    const sorted = [...items].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
    const all = sorted.map((c): CompletionOut => {
      const out: CompletionOut = { label: c.label };
      const kind = completionKindName(c.kind);
      if (kind) out.kind = kind;
      const detail = c.labelDetails?.detail ?? c.detail;
      if (detail) out.detail = detail;
      const doc = docString(c.documentation);
      if (doc) out.documentation = doc.length > 300 ? `${doc.slice(0, 300)}…` : doc;
      const insert = c.textEdit?.newText ?? c.insertText;
      if (insert && insert !== c.label) out.insert_text = insert;
      return out;
    });
    const p = page(all, args.offset, args.limit, 50);
    const incomplete = !Array.isArray(result) && (result?.isIncomplete ?? false);
    return { ready: true, is_incomplete: incomplete, total: p.total, complete: p.complete && !incomplete, offset: p.offset, limit: p.limit, returned: p.returned, items: p.items };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const lines = (r.items ?? []).map((c) => `${c.label}${c.kind ? ` (${c.kind})` : ''}${c.detail ? ` ${c.detail}` : ''}`);
    return `${pageHeader(r, 'completion(s)')}\n${lines.join('\n')}`.trim();
  },
});

const signatureOut = z.object({
  label: z.string(),
  documentation: z.string().optional(),
  parameters: z.array(z.object({ label: z.string(), documentation: z.string().optional() })),
  active_parameter: z.number().optional().describe('0-based index of the parameter at the cursor.'),
});

export const getSignatureHelp = defineTool({
  name: 'get_signature_help',
  title: 'Signature help',
  description: 'The signature of the call around a position, and the parameter at the cursor.',
  group: 'analysis',
  input: () => ({ ...positionInput, ...readinessInput }),
  output: () => ({ ...readyOutput, found: z.boolean().optional(), active_signature: z.number().optional(), signatures: z.array(signatureOut).optional() }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const help = await ctx.workspace.query<SignatureHelp | null>(
      conn,
      'textDocument/signatureHelp',
      { textDocument: { uri }, position: positionIn(doc, args), context: { triggerKind: 1, isRetrigger: false } },
      ctx.signal,
    );
    if (!help || help.signatures.length === 0) return { ready: true, found: false, signatures: [] };
    const signatures = help.signatures.map((s) => {
      const params = (s.parameters ?? []).map((p) => {
        const label = typeof p.label === 'string' ? p.label : s.label.slice(p.label[0], p.label[1]);
        const documentation = docString(p.documentation);
        return documentation ? { label, documentation } : { label };
      });
      const out: z.infer<typeof signatureOut> = { label: s.label, parameters: params };
      const documentation = docString(s.documentation);
      if (documentation) out.documentation = documentation;
      const active = s.activeParameter ?? help.activeParameter;
      if (typeof active === 'number') out.active_parameter = active;
      return out;
    });
    return { ready: true, found: true, active_signature: help.activeSignature ?? 0, signatures };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    if (!r.found) return 'No call signature at this position.';
    return (r.signatures ?? [])
      .map((s, i) => `${i === r.active_signature ? '▶ ' : '  '}${s.label}${s.active_parameter !== undefined && s.parameters[s.active_parameter] ? `  [at ${s.parameters[s.active_parameter]?.label}]` : ''}`)
      .join('\n');
  },
});

export const assistTools = [getCompletions, getSignatureHelp, suggestFixes];
