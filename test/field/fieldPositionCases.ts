// Field cases of the tools that answer about one position with what the server says there, other
// than locations: document highlights (with their kinds), signature help (the signatures and the
// active one) and completions (the labels). Each against the same server asked directly.
import { expect, it } from 'vitest';
import { ok } from '../helpers/mcpClient.js';
import { compareSets, type Outcome } from './fieldOutcome.js';
import { claimsComplete, cursor, describeTarget, type FieldContext, type FieldSpec, type Target } from './fieldSuite.js';
import type { FieldLocation, LspRange } from './rawServer.js';

type Record = (tool: string, label: string, result: { outcome: Outcome; detail?: string }) => void;

const HIGHLIGHT_KINDS = ['', 'text', 'read', 'write'];

export function positionCases(ctx: FieldContext, spec: FieldSpec, record: Record): void {
  const root = () => ctx.corpus.root;
  /** The raw server's request at `target`, with `extra` params. */
  const ask = <T>(method: string, target: Target, extra: object = {}): Promise<T | null> =>
    ctx.raw.request<T | null>(method, { textDocument: { uri: ctx.raw.uri(target.file) }, position: ctx.raw.lspPosition(target.file, cursor(root(), target)), ...extra });

  it.each(spec.highlights ?? [])('get_document_highlights at $file "$needle" is the server\'s own answer', async (target) => {
    const uri = ctx.raw.uri(target.file);
    const truth = ((await ask<{ range: LspRange; kind?: number }[]>('textDocument/documentHighlight', target)) ?? []).map((h) => {
      const l = ctx.raw.location(uri, h.range);
      return `${l.line}:${l.column}-${l.end_line}:${l.end_column} ${HIGHLIGHT_KINDS[h.kind ?? 1]}`;
    });
    expect(truth.length, 'the server highlights the symbol').toBeGreaterThan(0);
    const data = ok(await ctx.agent.call('get_document_highlights', { file_path: target.file, ...cursor(root(), target), limit: 10_000 }));
    const ours = ((data['highlights'] as (FieldLocation & { kind: string })[] | undefined) ?? []).map((h) => `${h.line}:${h.column}-${h.end_line}:${h.end_column} ${h.kind}`);
    record('get_document_highlights', describeTarget(target), compareSets(ours, truth, claimsComplete(data)));
  });

  it.each(spec.signatures ?? [])('get_signature_help at $file "$needle" is the server\'s own answer', async (target) => {
    const raw = await ask<{ signatures: { label: string }[]; activeSignature?: number }>('textDocument/signatureHelp', target, { context: { triggerKind: 1, isRetrigger: false } });
    const keys = (labels: string[], active: number | undefined) => labels.map((label, i) => `${label}${i === (active ?? 0) ? ' (active)' : ''}`);
    const truth = keys((raw?.signatures ?? []).map((s) => s.label), raw?.activeSignature);
    expect(truth.length, 'the server has a signature there').toBeGreaterThan(0);
    const data = ok(await ctx.agent.call('get_signature_help', { file_path: target.file, ...cursor(root(), target) }));
    const ours = keys(((data['signatures'] as { label: string }[] | undefined) ?? []).map((s) => s.label), data['active_signature'] as number | undefined);
    record('get_signature_help', describeTarget(target), compareSets(ours, truth, claimsComplete(data)));
  });

  it.each(spec.completions ?? [])('get_completions at $file "$needle" is the server\'s own list', async (target) => {
    const raw = await ask<{ label: string }[] | { items: { label: string }[]; isIncomplete?: boolean }>('textDocument/completion', target, { context: { triggerKind: 1 } });
    const truth = (Array.isArray(raw) ? raw : (raw?.items ?? [])).map((c) => c.label);
    expect(truth.length, 'the server completes there').toBeGreaterThan(0);
    const data = ok(await ctx.agent.call('get_completions', { file_path: target.file, ...cursor(root(), target), limit: 100_000 }));
    const ours = ((data['items'] as { label: string }[] | undefined) ?? []).map((c) => c.label);
    record('get_completions', describeTarget(target), compareSets(ours, truth, claimsComplete(data) && data['is_incomplete'] !== true));
  });
}
