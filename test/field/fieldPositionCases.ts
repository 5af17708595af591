// Field cases of the tools that answer with what the server says at one position, other than
// locations: document highlights (with their kinds), signature help (the signatures and the active
// one), completions (the labels) and prepare_rename (the range a rename replaces); a whole file's
// inlay hints and semantic tokens; and format_document and format_range of a file with a planted
// misformatted line (the edits). Each against the same server asked directly.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ok } from '../helpers/mcpClient.js';
import { compareSets, type Outcome } from './fieldOutcome.js';
import { claimsComplete, cursor, describeTarget, type FieldContext, type FieldSpec, type Target } from './fieldSuite.js';
import type { FieldLocation, LspRange } from './rawServer.js';

type Recorder = (tool: string, label: string, result: { outcome: Outcome; detail?: string }) => void;

const HIGHLIGHT_KINDS = ['', 'text', 'read', 'write'];

export function positionCases(ctx: FieldContext, spec: FieldSpec, record: Recorder): void {
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

  it.each(spec.renames ?? [])('prepare_rename at $file "$needle" is the server\'s own range', async (target) => {
    const raw = await ask<LspRange | { range: LspRange }>('textDocument/prepareRename', target);
    expect(raw, 'the server can rename there').not.toBeNull();
    const l = ctx.raw.location(ctx.raw.uri(target.file), 'range' in raw! ? raw.range : raw!);
    const data = ok(await ctx.agent.call('prepare_rename', { file_path: target.file, ...cursor(root(), target) }));
    const range = data['range'] as Omit<FieldLocation, 'file'> | undefined;
    const ours = data['renameable'] === true && range ? [`${range.line}:${range.column}-${range.end_line}:${range.end_column}`] : [];
    record('prepare_rename', describeTarget(target), compareSets(ours, [`${l.line}:${l.column}-${l.end_line}:${l.end_column}`], claimsComplete(data)));
  });

  it.each(spec.inlayHints ?? [])('get_inlay_hints of %s is the server\'s own hints', async (file) => {
    await ctx.raw.open(file, spec.languageId);
    const uri = ctx.raw.uri(file);
    const lines = readFileSync(join(root(), file), 'utf8').split(/\r\n|\r|\n/);
    const whole = { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: (lines.at(-1) ?? '').length } };
    const raw = (await ctx.raw.request<{ position: LspRange['start']; label: string | { value: string }[] }[] | null>('textDocument/inlayHint', { textDocument: { uri }, range: whole })) ?? [];
    const truth = raw.map((h) => {
      const l = ctx.raw.location(uri, { start: h.position, end: h.position });
      return `${l.line}:${l.column} ${typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')}`;
    });
    expect(truth.length, 'the server shows hints in the file').toBeGreaterThan(0);
    const data = ok(await ctx.agent.call('get_inlay_hints', { file_path: file, limit: 100_000 }));
    const ours = ((data['hints'] as { line: number; column: number; label: string }[] | undefined) ?? []).map((h) => `${h.line}:${h.column} ${h.label}`);
    record('get_inlay_hints', file, compareSets(ours, truth, claimsComplete(data)));
  });

  it.each(spec.semanticTokens ?? [])('get_semantic_tokens of %s is the server\'s own tokens', async (file) => {
    await ctx.raw.open(file, spec.languageId);
    const legend = (ctx.raw.capabilities['semanticTokensProvider'] as { legend?: { tokenTypes: string[]; tokenModifiers: string[] } } | undefined)?.legend;
    expect(legend, 'the server has semantic tokens').toBeDefined();
    const raw = await ctx.raw.request<{ data: number[] } | null>('textDocument/semanticTokens/full', { textDocument: { uri: ctx.raw.uri(file) } });
    const truth = rawTokens(readFileSync(join(root(), file), 'utf8'), raw?.data ?? [], legend!);
    expect(truth.length, 'the server has tokens in the file').toBeGreaterThan(0);
    const data = ok(await ctx.agent.call('get_semantic_tokens', { file_path: file, limit: 1_000_000 }));
    const ours = ((data['tokens'] as { line: number; column: number; length: number; type: string; modifiers: string[] }[] | undefined) ?? []).map(
      (t) => `${t.line}:${t.column}+${t.length} ${t.type}${t.modifiers.length ? `[${[...t.modifiers].sort().join(',')}]` : ''}`,
    );
    record('get_semantic_tokens', file, compareSets(ours, truth, claimsComplete(data)));
  });

  it.each(spec.formatting ?? [])('format_document of $file with a misformatted line is the server\'s own edits', async ({ file, planted }) => {
    const path = join(root(), file);
    const original = readFileSync(path, 'utf8');
    const text = `${original.replace(/\n?$/, '\n')}${planted}\n`;
    writeFileSync(path, text);
    try {
      const uri = ctx.raw.uri(file);
      await ctx.raw.open(file, spec.languageId);
      const raw = (await ctx.raw.request<RawEdit[] | null>('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 4, insertSpaces: true } })) ?? [];
      const keysOf = (edits: RawEdit[]): string[] => edits.map((e) => editKey(ctx.raw.location(uri, e.range), e.newText));
      const truth = keysOf(raw);
      expect(truth.length, 'the server formats the planted line').toBeGreaterThan(0);
      const data = ok(await ctx.agent.call('format_document', { file_path: file }));
      record('format_document', `${file} + a misformatted line`, compareSets(ourEdits(data), truth, claimsComplete(data)));
      // format_range of the planted line: the server's range formatting, or for a server that
      // formats whole files only (gopls), its whole-file edits that fall inside the range.
      const line = text.split('\n').length - 2;
      const range = { start: { line, character: 0 }, end: { line, character: planted.length } };
      const byRange = ctx.raw.capabilities['documentRangeFormattingProvider'] !== undefined && ctx.raw.capabilities['documentRangeFormattingProvider'] !== false;
      const rangeTruth = byRange
        ? keysOf((await ctx.raw.request<RawEdit[] | null>('textDocument/rangeFormatting', { textDocument: { uri }, range, options: { tabSize: 4, insertSpaces: true } })) ?? [])
        : keysOf(raw.filter((e) => e.range.start.line === line && e.range.end.line === line && e.range.end.character <= planted.length));
      expect(rangeTruth.length, 'the server formats the planted line').toBeGreaterThan(0);
      const ranged = ok(await ctx.agent.call('format_range', { file_path: file, start_line: line + 1, start_column: 1, end_line: line + 1, end_column: [...planted].length + 1 }));
      record('format_range', `${file}, a misformatted line`, compareSets(ourEdits(ranged), rangeTruth, claimsComplete(ranged)));
    } finally {
      writeFileSync(path, original);
      await ctx.raw.open(file, spec.languageId);
    }
  });
}

interface RawEdit {
  range: LspRange;
  newText: string;
}

const editKey = (r: Omit<FieldLocation, 'file'>, newText: string): string => `${r.line}:${r.column}-${r.end_line}:${r.end_column} ${JSON.stringify(newText)}`;

/** A formatting tool's edits as editKey gives the server's. */
function ourEdits(data: Record<string, unknown>): string[] {
  return ((data['edits'] as (Omit<FieldLocation, 'file'> & { new_text: string })[] | undefined) ?? []).map((e) => editKey(e, e.new_text));
}

/**
 * The server's semantic tokens decoded as LSP says (relative lines and UTF-16 starts, types and
 * modifier bits by the legend), as `line:column+length type[modifiers]` in characters.
 */
function rawTokens(text: string, data: readonly number[], legend: { tokenTypes: string[]; tokenModifiers: string[] }): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  const tokens: string[] = [];
  let line = 0;
  let start = 0;
  for (let i = 0; i + 5 <= data.length; i += 5) {
    const [dLine, dStart, length, type, bits] = data.slice(i, i + 5) as [number, number, number, number, number];
    line += dLine;
    start = dLine === 0 ? start + dStart : dStart;
    const units = lines[line] ?? '';
    const column = [...units.slice(0, start)].length + 1;
    const chars = [...units.slice(start, start + length)].length;
    const modifiers = legend.tokenModifiers.filter((_, bit) => (bits & (1 << bit)) !== 0).sort();
    tokens.push(`${line + 1}:${column}+${chars} ${legend.tokenTypes[type] ?? `type${type}`}${modifiers.length ? `[${modifiers.join(',')}]` : ''}`);
  }
  return tokens;
}
