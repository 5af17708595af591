import { z } from 'zod';
import type {
  CodeAction,
  Command,
  CompletionItem,
  CompletionList,
  MarkupContent,
  SignatureHelp,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { uriToPath } from '@agent-lsp/protocol';
import { isNotReady, openReadyDocument, positionIn, rangeIn } from '../documentQuery.js';
import { diagnosticMessage, diagnosticText } from '../diagnosticText.js';
import { PositionMapper } from '../locations.js';
import { page, pageHeader } from '../paging.js';
import { notReadyText, type NotReadyResult } from '../readinessGate.js';
import { diagnostic, pagingInput, pagingOutput, positionInput, rangeInput, readinessInput, readyOutput } from '../schemas.js';
import { completionKindName } from '../symbolKinds.js';
import { defineTool, READ_ONLY } from '../toolDefinition.js';

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
  input: { ...positionInput, ...readinessInput, ...pagingInput },
  output: { ...readyOutput, ...pagingOutput, is_incomplete: z.boolean().optional(), items: z.array(completionOut).optional() },
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
  input: { ...positionInput, ...readinessInput },
  output: { ...readyOutput, found: z.boolean().optional(), active_signature: z.number().optional(), signatures: z.array(signatureOut).optional() },
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const help = await conn.request<SignatureHelp | null>(
      'textDocument/signatureHelp',
      { textDocument: { uri }, position: positionIn(doc, args), context: { triggerKind: 1, isRetrigger: false } },
      { signal: ctx.signal },
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

const actionOut = z.object({
  title: z.string(),
  kind: z.string().optional(),
  is_preferred: z.boolean().optional(),
  fixes: z.array(z.string()).optional().describe('Messages of the diagnostics this action addresses.'),
  edits: z.array(z.object({ file: z.string(), edits: z.number() })).optional().describe('Files the action would change and how many edits in each.'),
  command: z.string().optional(),
});
type ActionOut = z.infer<typeof actionOut>;

function editSummary(ws: { displayUri(uri: string): string }, edit: WorkspaceEdit | undefined): ActionOut['edits'] {
  if (!edit) return undefined;
  const counts = new Map<string, number>();
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) counts.set(uri, (counts.get(uri) ?? 0) + edits.length);
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change) counts.set(change.textDocument.uri, (counts.get(change.textDocument.uri) ?? 0) + change.edits.length);
    else {
      const uri = 'uri' in change ? change.uri : change.newUri;
      counts.set(uri, (counts.get(uri) ?? 0) + 1);
    }
  }
  return [...counts].map(([uri, n]) => ({ file: uriToPath(uri) ? ws.displayUri(uri) : uri, edits: n }));
}

export const suggestFixes = defineTool({
  name: 'suggest_fixes',
  title: 'Suggest fixes (code actions)',
  description: 'Quick fixes and refactorings for a range, and what each would change. Applies nothing.',
  group: 'analysis',
  input: { ...rangeInput, ...readinessInput },
  output: { ...readyOutput, diagnostics: z.array(diagnostic).optional(), actions: z.array(actionOut).optional(), total: z.number().optional(), complete: z.boolean().optional() },
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const range = rangeIn(doc, args);
    const settled = await conn.diagnostics.settle(uri, 15_000);
    const overlapping = settled.diagnostics.filter(
      (d) =>
        (d.range.start.line < range.end.line || (d.range.start.line === range.end.line && d.range.start.character <= range.end.character)) &&
        (d.range.end.line > range.start.line || (d.range.end.line === range.start.line && d.range.end.character >= range.start.character)),
    );
    const result = await conn.request<(CodeAction | Command)[] | null>(
      'textDocument/codeAction',
      { textDocument: { uri }, range, context: { diagnostics: overlapping, triggerKind: 1 } },
      { signal: ctx.signal },
    );
    const mapper = new PositionMapper(ctx.workspace, conn);
    // Disabled actions are ones the server says do not apply here; preferred quick fixes first.
    const offered = (result ?? []).filter((a) => !('disabled' in a && a.disabled));
    const rank = (a: CodeAction | Command) => ('isPreferred' in a && a.isPreferred ? 0 : 'kind' in a && a.kind?.startsWith('quickfix') ? 1 : 2);
    offered.sort((a, b) => rank(a) - rank(b));
    const actions = offered.map((a): ActionOut => {
      if (typeof (a as Command).command === 'string') return { title: a.title, command: (a as Command).command };
      const action = a as CodeAction;
      const out: ActionOut = { title: action.title };
      if (action.kind) out.kind = action.kind;
      if (action.isPreferred) out.is_preferred = true;
      if (action.diagnostics?.length) out.fixes = action.diagnostics.map((d) => diagnosticMessage(d.message));
      const edits = editSummary(ctx.workspace, action.edit);
      if (edits) out.edits = edits;
      if (action.command) out.command = action.command.command;
      return out;
    });
    return { ready: true, diagnostics: overlapping.map((d) => mapper.diagnostic(uri, d)), actions, total: actions.length, complete: true };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const diags = (r.diagnostics ?? []).map((d) => `  ${diagnosticText(d)}`);
    const acts = (r.actions ?? []).map(
      (a) => `- ${a.title}${a.kind ? ` [${a.kind}]` : ''}${a.is_preferred ? ' (preferred)' : ''}${a.edits ? ` → ${a.edits.map((e) => `${e.file} (${e.edits})`).join(', ')}` : ''}`,
    );
    return [diags.length ? `Diagnostics in range:\n${diags.join('\n')}` : 'No diagnostics in range.', acts.length ? `${acts.length} action(s):\n${acts.join('\n')}` : 'No code actions offered.'].join('\n');
  },
});

export const assistTools = [getCompletions, getSignatureHelp, suggestFixes];
