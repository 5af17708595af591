// The general field cases: on one corpus, agent-lsp (bin/agent-lsp over stdio, through the MCP
// SDK client, as an agent runs it) and the same language server asked directly (rawServer.ts)
// answer the same questions — references, definition, type definition, implementations, document
// highlights, hover, a file's outline, workspace symbols — and get_diagnostics of a file with a
// planted error answers what the CLI checker says. One front and one raw server serve every case
// of a file. Outside edits between calls: fieldOutsideEdits.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentLsp, ok, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { positionOf } from '../helpers/text.js';
import { isNotRun, prepareCorpus, type Corpus, type CorpusName } from './corpora.js';
import type { Checker } from './fieldCheckers.js';
import { compareSets, judge, type Outcome } from './fieldOutcome.js';
import { outsideEditCases, type OutsideEditKind } from './fieldOutsideEdits.js';
import { positionCases } from './fieldPositionCases.js';
import { symbolCases } from './fieldSymbolCases.js';
import { compositeCases } from './fieldCompositeCases.js';
import { insertCases, type SymbolInsertion } from './fieldInsertCases.js';
import { editCases, type BodyReplacement, type PlantedFix, type PlantedSymbol } from './fieldEditCases.js';
import { RawServer, type FieldLocation, type ServerId } from './rawServer.js';

/** A position: the start of `needle` (its first occurrence in the file), plus `at` characters. */
export interface Target {
  file: string;
  needle: string;
  at?: number;
}

export interface FieldSpec {
  corpus: CorpusName;
  server: ServerId;
  /** The executable the server needs on PATH, when it is not one agent-lsp ships. */
  binary?: string;
  languageId: string;
  /** How a line comment starts (outside edits insert comment lines). */
  comment: string;
  references: Target[];
  definitions: Target[];
  /** go_to_type_definition targets (textDocument/typeDefinition). */
  typeDefinitions?: Target[];
  /** go_to_implementation targets (textDocument/implementation). */
  implementations?: Target[];
  /** go_to_declaration targets (textDocument/declaration). */
  declarations?: Target[];
  /** get_document_highlights targets (textDocument/documentHighlight). */
  highlights?: Target[];
  /** get_signature_help targets (textDocument/signatureHelp), inside a call's parentheses. */
  signatures?: Target[];
  /** get_completions targets (textDocument/completion), where the server's list does not depend on time (member access). */
  completions?: Target[];
  /** prepare_rename targets (textDocument/prepareRename). */
  renames?: Target[];
  /** Files whose get_inlay_hints (the whole file) is compared. */
  inlayHints?: string[];
  /** Files whose get_semantic_tokens (the whole file) is compared. */
  semanticTokens?: string[];
  /** Symbols named by a dotted path in their file: go_to_symbol, get_symbol_source and get_symbol_documentation (fieldSymbolCases.ts). */
  symbolPaths?: { file: string; path: string }[];
  /** explore_symbol targets (fieldCompositeCases.ts). */
  explore?: Target[];
  /** Files whose get_editing_context is compared (fieldCompositeCases.ts). */
  editingContext?: string[];
  /** format_document and format_range of a file with `planted` (a misformatted line) appended. */
  formatting?: { file: string; planted: string }[];
  /** safe_delete_symbol of symbols used elsewhere: refused, the uses counted as the server counts them (fieldEditCases.ts). */
  deleteReferenced?: Target[];
  /** safe_delete_symbol of an unused symbol planted in a real file: exactly its lines deleted. */
  deleteUnused?: PlantedSymbol[];
  /** replace_symbol_body of real symbols: exactly the body the server's document symbol spans replaced. */
  replaceBodies?: BodyReplacement[];
  /** suggest_fixes at a planted error, then apply_fix of the quick fix the server prefers. */
  fixes?: PlantedFix[];
  /** insert_before_symbol / insert_after_symbol of code next to real symbols (fieldInsertCases.ts). */
  inserts?: SymbolInsertion[];
  hovers: Target[];
  outlines: string[];
  symbols: string[];
  diagnostics: { file: string; planted: string; checker: Checker }[];
  /** A references target whose files are edited outside agent-lsp between calls. */
  outside?: Target;
  outsideKinds?: OutsideEditKind[];
  /** The files those edits change (default: every file with a reference but the symbol's own). */
  outsideFiles?: string[];
  /** The issue 28 item that makes these outside edits' answers wrong today (full tier only). */
  outsideDefect?: string;
  /**
   * The first references question is asked right after start_lsp, while the server asked
   * directly starts: a readiness that lets a question through before the server has loaded the
   * workspace gives a wrong answer there.
   */
  askFirstRightAfterStart?: boolean;
  /**
   * The first workspace-symbol question (symbols[0]) is asked right after start_lsp, before the
   * server has indexed the workspace: an index still empty or partial must not answer as complete.
   */
  askSymbolRightAfterStart?: boolean;
}

/** Per case and for the servers' start: Django's references and sqlite3.c's outline take minutes on a loaded machine. */
const FIELD_TIMEOUT_MS = 600_000;

export interface FieldContext {
  corpus: Corpus;
  agent: AgentLspClient;
  raw: RawServer;
  spec: FieldSpec;
}

export function cursor(root: string, target: Target): { line: number; column: number } {
  const at = positionOf(join(root, target.file), target.needle);
  return { line: at.line, column: at.column + (target.at ?? 0) };
}

export const describeTarget = (t: Target): string => `${t.file} "${t.needle}"${t.at ? `+${t.at}` : ''}`;

/** Files as agent-lsp gives them: root-relative inside the root, absolute outside (Go's standard library, typeshed). */
export function locationKeys(root: string, locations: readonly FieldLocation[]): string[] {
  return locations.map((l) => {
    const file = resolve(root, l.file);
    const inside = relative(root, file);
    return `${inside.startsWith('..') || isAbsolute(inside) ? file : inside}:${l.line}:${l.column}-${l.end_line}:${l.end_column}`;
  });
}

/** Whether an answer claims to be complete and ready. */
export function claimsComplete(data: Record<string, unknown>): boolean {
  return data['complete'] !== false && data['ready'] !== false;
}

/**
 * How long a field question waits for the server to be ready: below the MCP client's 300 s, so a
 * server still building what changed (clangd: minutes for sqlite3.c on a loaded machine) gives an
 * answer labelled not ready instead of a timed-out call.
 */
const READY_TIMEOUT_S = 240;

export async function ourReferences(ctx: FieldContext, target: Target): Promise<{ keys: string[]; complete: boolean }> {
  const at = cursor(ctx.corpus.root, target);
  const data = ok(await ctx.agent.call('find_references', { file_path: target.file, ...at, include_declaration: true, limit: 100_000, ready_timeout_seconds: READY_TIMEOUT_S }));
  return { keys: locationKeys(ctx.corpus.root, (data['locations'] as FieldLocation[] | undefined) ?? []), complete: claimsComplete(data) };
}

export async function trueReferences(ctx: FieldContext, target: Target): Promise<string[]> {
  await ctx.raw.open(target.file, ctx.spec.languageId);
  const at = cursor(ctx.corpus.root, target);
  return locationKeys(ctx.corpus.root, await ctx.raw.locations('textDocument/references', target.file, at, { context: { includeDeclaration: true } }));
}

/** A hover's text, markdown or plain, its whitespace folded. */
export function hoverText(contents: unknown): string {
  const one = (c: unknown): string => (typeof c === 'string' ? c : (c as { value: string }).value);
  const text = Array.isArray(contents) ? contents.map(one).join('\n\n') : one(contents);
  return text.replace(/\s+/g, ' ').trim();
}

interface RawSymbol {
  name: string;
  range?: { start: { line: number; character: number }; end: { line: number; character: number } };
  selectionRange?: RawSymbol['range'];
  location?: { uri: string; range?: RawSymbol['range'] };
  children?: RawSymbol[];
}

/** The server's own workspace symbols for a query, as `name@file:line:column`. */
export async function trueSymbols(raw: RawServer, root: string, query: string): Promise<string[]> {
  const answer = (await raw.request<RawSymbol[] | null>('workspace/symbol', { query })) ?? [];
  return answer.map((s) => {
    const l = raw.location(s.location!.uri, s.location!.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
    return `${s.name}@${locationKeys(root, [l])[0]!.replace(/-\d+:\d+$/, '')}`;
  });
}

/** find_symbol's answer for a query, as trueSymbols gives the server's. */
export async function ourSymbols(agent: AgentLspClient, root: string, query: string, languageId: string): Promise<{ keys: string[]; complete: boolean }> {
  const data = ok(await agent.call('find_symbol', { query, language_id: languageId, limit: 1_000_000, ready_timeout_seconds: READY_TIMEOUT_S }));
  const keys = ((data['symbols'] as (FieldLocation & { name: string })[] | undefined) ?? []).map((s) => `${s.name}@${locationKeys(root, [s])[0]!.replace(/-\d+:\d+$/, '')}`);
  return { keys, complete: claimsComplete(data) };
}

export function defineFieldSuite(spec: FieldSpec, tier: string): void {
  const missing = spec.binary !== undefined && !onPath(spec.binary) ? `${spec.binary} is not installed` : undefined;
  const prepared = missing ? { notRun: missing } : prepareCorpus(spec.corpus);
  const notRun = isNotRun(prepared) ? prepared.notRun : undefined;
  // The copy is made when the file is collected; afterAll removes it, and so does the exit of a
  // process that collected the file without running it (vitest list, a -t filter).
  if (!isNotRun(prepared)) process.once('exit', () => prepared.dispose());
  if (notRun) console.warn(`field ${spec.corpus}: not run (${notRun})`);
  describe.skipIf(notRun !== undefined)(`field, ${spec.corpus} on ${spec.server}, ${tier}${notRun ? ` (NOT RUN: ${notRun})` : ''}`, { timeout: FIELD_TIMEOUT_MS }, () => {
    const ctx = {} as FieldContext;
    let askedRightAfterStart: { target: Target; answer: { keys: string[]; complete: boolean } } | undefined;
    let symbolRightAfterStart: { query: string; answer: { keys: string[]; complete: boolean } } | undefined;
    const root = (): string => ctx.corpus.root;
    const record = (tool: string, label: string, result: { outcome: Outcome; detail?: string }): void =>
      judge({ tool, corpus: spec.corpus, case: label, ...result });

    beforeAll(async () => {
      ctx.corpus = prepared as Corpus;
      ctx.spec = spec;
      ctx.agent = await startAgentLsp();
      ok(await ctx.agent.call('start_lsp', { root_dir: root(), language_id: spec.languageId }));
      // The server asked directly loads meanwhile (two cores: the two loads take turns).
      const starting = RawServer.start(spec.server, root());
      try {
        const first = spec.askFirstRightAfterStart ? spec.references[0] : undefined;
        const query = spec.askSymbolRightAfterStart ? spec.symbols[0] : undefined;
        const [references, symbols] = await Promise.all([
          first ? ourReferences(ctx, first) : undefined,
          query ? ourSymbols(ctx.agent, root(), query, spec.languageId) : undefined,
        ]);
        if (first && references) askedRightAfterStart = { target: first, answer: references };
        if (query && symbols) symbolRightAfterStart = { query, answer: symbols };
      } finally {
        ctx.raw = await starting;
      }
      const located = [...locationCases(spec).flatMap((c) => c.targets), ...(spec.highlights ?? []), ...(spec.signatures ?? []), ...(spec.completions ?? []), ...(spec.renames ?? [])];
      for (const t of [...spec.references, ...located, ...spec.hovers, ...(spec.outside ? [spec.outside] : [])]) await ctx.raw.open(t.file, spec.languageId);
      await ctx.raw.idle();
    }, FIELD_TIMEOUT_MS);
    afterAll(async () => {
      await ctx.agent?.close();
      await ctx.raw?.stop();
      ctx.corpus?.dispose();
    });

    if (spec.askFirstRightAfterStart) {
      it('find_references asked right after start_lsp is the server\'s own answer once it has loaded the workspace', async () => {
        const { target, answer } = askedRightAfterStart!;
        const truth = await trueReferences(ctx, target);
        expect(truth.length, 'the server finds the symbol').toBeGreaterThan(0);
        record('find_references', `${describeTarget(target)}, asked right after start_lsp`, compareSets(answer.keys, truth, answer.complete));
      });
    }

    if (spec.askSymbolRightAfterStart) {
      it('find_symbol asked right after start_lsp is the server\'s own workspace symbols once it has indexed', async () => {
        const { query, answer } = symbolRightAfterStart!;
        const truth = await trueSymbols(ctx.raw, root(), query);
        expect(truth.length, 'the server finds symbols').toBeGreaterThan(0);
        record('find_symbol', `"${query}", asked right after start_lsp`, compareSets(answer.keys, truth, answer.complete));
      });
    }

    it.each(spec.references)('find_references at $file "$needle" is the server\'s own answer', async (target) => {
      const truth = await trueReferences(ctx, target);
      expect(truth.length, 'the server finds the symbol').toBeGreaterThan(0);
      const ours = await ourReferences(ctx, target);
      record('find_references', describeTarget(target), compareSets(ours.keys, truth, ours.complete));
    });

    for (const { tool, method, targets } of locationCases(spec)) {
      it.each(targets)(`${tool} at $file "$needle" is the server's own answer`, async (target) => {
        const at = cursor(root(), target);
        const truth = locationKeys(root(), await ctx.raw.locations(method, target.file, at));
        expect(truth.length, `the server answers ${method}`).toBeGreaterThan(0);
        const data = ok(await ctx.agent.call(tool, { file_path: target.file, ...at, limit: 10_000 }));
        const ours = locationKeys(root(), (data['locations'] as FieldLocation[] | undefined) ?? []);
        record(tool, describeTarget(target), compareSets(ours, truth, claimsComplete(data)));
      });
    }

    positionCases(ctx, spec, record);
    symbolCases(ctx, spec, record);
    compositeCases(ctx, spec, record);
    editCases(ctx, spec, record);
    insertCases(ctx, spec, record);

    it.each(spec.hovers)('inspect_symbol (hover) at $file "$needle" is the server\'s own text', async (target) => {
      const at = cursor(root(), target);
      const raw = await ctx.raw.request<{ contents: unknown } | null>('textDocument/hover', { textDocument: { uri: ctx.raw.uri(target.file) }, position: ctx.raw.lspPosition(target.file, at) });
      expect(raw, 'the server has a hover there').not.toBeNull();
      const data = ok(await ctx.agent.call('inspect_symbol', { file_path: target.file, ...at }));
      const ours = typeof data['contents'] === 'string' ? [hoverText(data['contents'])] : [];
      record('inspect_symbol', describeTarget(target), compareSets(ours, [hoverText(raw!.contents)], claimsComplete(data)));
    });

    it.each(spec.outlines)('list_symbols of %s is the server\'s document symbols', async (file) => {
      await ctx.raw.open(file, spec.languageId);
      const raw = (await ctx.raw.request<RawSymbol[] | null>('textDocument/documentSymbol', { textDocument: { uri: ctx.raw.uri(file) } })) ?? [];
      const truth: string[] = [];
      const walk = (symbols: RawSymbol[]): void => {
        for (const s of symbols) {
          const range = s.range ?? s.location!.range!;
          const start = ctx.raw.location(ctx.raw.uri(file), s.selectionRange ?? range);
          const end = ctx.raw.location(ctx.raw.uri(file), range);
          truth.push(`${s.name}@${start.line}:${start.column}-${end.end_line}:${end.end_column}`);
          walk(s.children ?? []);
        }
      };
      walk(raw);
      expect(truth.length, 'the server outlines the file').toBeGreaterThan(0);
      const data = ok(await ctx.agent.call('list_symbols', { file_path: file, include_locals: true, limit: 1_000_000 }));
      const ours = ((data['symbols'] as { name: string; line: number; column: number; end_line: number; end_column: number }[] | undefined) ?? []).map(
        (s) => `${s.name}@${s.line}:${s.column}-${s.end_line}:${s.end_column}`,
      );
      record('list_symbols', file, compareSets(ours, truth, claimsComplete(data)));
    });

    it.each(spec.symbols)('find_symbol "%s" is the server\'s workspace symbols', async (query) => {
      const truth = await trueSymbols(ctx.raw, root(), query);
      expect(truth.length, 'the server finds symbols').toBeGreaterThan(0);
      const ours = await ourSymbols(ctx.agent, root(), query, spec.languageId);
      record('find_symbol', query, compareSets(ours.keys, truth, ours.complete));
    });

    it.each(spec.diagnostics)('get_diagnostics of $file with a planted error is what the CLI checker says', async ({ file, planted, checker }) => {
      const path = join(root(), file);
      const original = readFileSync(path, 'utf8');
      try {
        writeFileSync(path, `${original.replace(/\n?$/, '\n')}${planted}\n`);
        const plantedLine = original.replace(/\n?$/, '\n').split('\n').length;
        const truth = checker(root(), file);
        expect(truth.some((k) => k.startsWith(`${plantedLine}:`)), `the checker sees the planted error on line ${plantedLine}: ${JSON.stringify(truth)}`).toBe(true);
        const data = ok(await ctx.agent.call('get_diagnostics', { file_path: file, limit: 100_000 }));
        const settled = ((data['files'] as { settled_by?: string }[] | undefined) ?? []).every((f) => f.settled_by !== 'quiet' && f.settled_by !== 'timeout');
        const ours = ((data['diagnostics'] as (FieldLocation & { severity: string })[] | undefined) ?? []).filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.column}`);
        record('get_diagnostics', `${file} + planted error`, compareSets(ours, truth, claimsComplete(data) && settled));
      } finally {
        writeFileSync(path, original);
      }
    });

    if (spec.outside) outsideEditCases(ctx, spec.outside, spec.outsideKinds ?? [], record);
  });
}

/** The tools that answer with the locations of one LSP request at a position, and the spec's targets for each. */
function locationCases(spec: FieldSpec): { tool: string; method: string; targets: Target[] }[] {
  return [
    { tool: 'go_to_definition', method: 'textDocument/definition', targets: spec.definitions },
    { tool: 'go_to_type_definition', method: 'textDocument/typeDefinition', targets: spec.typeDefinitions ?? [] },
    { tool: 'go_to_implementation', method: 'textDocument/implementation', targets: spec.implementations ?? [] },
    { tool: 'go_to_declaration', method: 'textDocument/declaration', targets: spec.declarations ?? [] },
  ].filter((c) => c.targets.length > 0);
}
