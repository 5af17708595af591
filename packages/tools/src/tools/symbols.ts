import { z } from 'zod';
import { withAnswerCache } from '../answerCache/cachedAnswers.js';
import type { DocumentSymbol, Hover, MarkedString, MarkupContent, SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import { splitLines, toLspPosition, UserError, SymbolKind } from '@agent-lsp/protocol';
import type { LspConnection, ServerDefinition } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument, positionIn } from '../project/documentQuery.js';
import { failedServersText, fanOut, serverOutcomeOutput } from '../project/fanOut.js';
import { compareStrings, PositionMapper } from '../output/locations.js';
import { page, pageFields, pageHeader } from '../output/paging.js';
import { projectLanguages } from '../project/projectLanguages.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { pagingInput, pagingOutput, positionInput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { SYMBOL_KIND_NAMES, symbolKindName } from '../symbols/symbolKinds.js';
import { coverageNotReady, loadEveryProject, workspaceSymbols } from '../project/projectSeeds.js';
import { defineTool, READ_ONLY, type ToolContext } from '../catalog/toolDefinition.js';

export function hoverText(contents: Hover['contents']): string {
  const one = (c: MarkedString | MarkupContent): string =>
    typeof c === 'string' ? c : 'kind' in c ? c.value : '```' + c.language + '\n' + c.value + '\n```';
  return Array.isArray(contents) ? contents.map(one).join('\n\n') : one(contents);
}

export const inspectSymbol = defineTool({
  name: 'inspect_symbol',
  title: 'Inspect symbol (hover)',
  description: 'Type, signature and documentation of the symbol at a position (hover).',
  group: 'analysis',
  input: () => ({ ...positionInput, ...readinessInput }),
  output: () => ({
    ...readyOutput,
    found: z.boolean().optional(),
    contents: z.string().optional().describe('Markdown: signature and documentation.'),
    range: z.object({ line: z.number(), column: z.number(), end_line: z.number(), end_column: z.number() }).optional(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const hover = await ctx.workspace.query<Hover | null>(conn, 'textDocument/hover', { textDocument: { uri }, position: positionIn(doc, args) }, ctx.signal);
    if (!hover) return { ready: true, found: false };
    const out: { ready: true; found: true; contents: string; range?: { line: number; column: number; end_line: number; end_column: number } } = {
      ready: true,
      found: true,
      contents: hoverText(hover.contents),
    };
    if (hover.range) out.range = new PositionMapper(ctx.workspace, conn).range(uri, hover.range);
    return out;
  },
  text: (r) => (!r.ready ? notReadyText(r as NotReadyResult) : r.found ? (r.contents ?? '').trim() : 'No symbol information at this position.'),
});

const symbolOut = z.object({
  name: z.string(),
  kind: z.string(),
  detail: z.string().optional(),
  container: z.string().optional(),
  path: z.string().optional().describe('format flat: the dotted path, e.g. Class.method.'),
  depth: z.number(),
  line: z.number(),
  column: z.number(),
  end_line: z.number(),
  end_column: z.number(),
});
type SymbolOut = z.infer<typeof symbolOut>;

/** Symbols whose children are locals: what an outline leaves out unless asked. */
const FUNCTION_KINDS: ReadonlySet<SymbolKind> = new Set<SymbolKind>([SymbolKind.Function, SymbolKind.Method, SymbolKind.Constructor]);

// Its answers are kept in the answer cache where the workspace opted in (see answerCache/).
export const listSymbols = withAnswerCache(defineTool({
  name: 'list_symbols',
  title: 'List symbols in a file',
  description: 'A file\'s outline: classes, members, functions, with ranges and nesting.',
  group: 'analysis',
  input: () => ({
    file_path: positionInput.file_path,
    include_locals: z.boolean().optional().describe('Also what functions and methods declare inside.'),
    format: z.enum(['tree', 'flat']).optional().describe('flat: one line per symbol with its dotted path.'),
    ...readinessInput,
    ...pagingInput,
  }),
  output: () => ({
    ...readyOutput,
    ...pagingOutput,
    locals_omitted: z.number().optional().describe('Symbols inside functions left out (include_locals: true lists them).'),
    symbols: z.array(symbolOut).optional(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const result = await ctx.workspace.query<DocumentSymbol[] | SymbolInformation[] | null>(conn, 'textDocument/documentSymbol', { textDocument: { uri } }, ctx.signal);
    const mapper = new PositionMapper(ctx.workspace, conn);
    const flat: SymbolOut[] = [];
    let omitted = 0;
    const count = (symbols: readonly DocumentSymbol[]): number => symbols.reduce((n, s) => n + 1 + count(s.children ?? []), 0);
    const flatFormat = args.format === 'flat';
    const walk = (symbols: DocumentSymbol[], depth: number, container: string | undefined, prefix: string) => {
      for (const s of symbols) {
        const item: SymbolOut = { name: s.name, kind: symbolKindName(s.kind), depth, ...mapper.range(uri, s.selectionRange) };
        if (flatFormat) item.path = prefix ? `${prefix}.${s.name}` : s.name;
        const full = mapper.range(uri, s.range);
        item.end_line = full.end_line;
        item.end_column = full.end_column;
        if (s.detail) item.detail = s.detail;
        if (container) item.container = container;
        flat.push(item);
        if (!s.children) continue;
        if (FUNCTION_KINDS.has(s.kind) && args.include_locals !== true) omitted += count(s.children);
        else walk(s.children, depth + 1, s.name, prefix ? `${prefix}.${s.name}` : s.name);
      }
    };
    const list = result ?? [];
    if (list.length > 0 && 'location' in (list[0] as object)) {
      for (const s of list as SymbolInformation[]) {
        const item: SymbolOut = { name: s.name, kind: symbolKindName(s.kind), depth: s.containerName ? 1 : 0, ...mapper.range(uri, s.location.range) };
        if (s.containerName) item.container = s.containerName;
        if (flatFormat) item.path = s.containerName ? `${s.containerName}.${s.name}` : s.name;
        flat.push(item);
      }
    } else {
      walk(list as DocumentSymbol[], 0, undefined, '');
    }
    const p = page(flat, args.offset, args.limit, 500);
    return { ready: true, ...pageFields(p), locals_omitted: omitted, symbols: p.items };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const lines = (r.symbols ?? []).map((s) => `${s.path === undefined ? '  '.repeat(s.depth) : ''}${s.kind} ${s.path ?? s.name}${s.detail ? ` ${s.detail}` : ''} (${s.line}:${s.column}-${s.end_line}:${s.end_column})`);
    const omitted = r.locals_omitted ? [`(${r.locals_omitted} local symbol(s) inside functions not listed; include_locals: true lists them)`] : [];
    return [`${pageHeader(r, 'symbol(s)')}\n${lines.join('\n')}`.trim(), ...omitted].join('\n');
  },
}));

const foundSymbolOut = z.object({
  name: z.string(),
  kind: z.string(),
  container: z.string().optional(),
  match: z.enum(['exact', 'prefix', 'substring', 'fuzzy']).describe('How the name matches the query; exact matches come first.'),
  hover: z.string().optional().describe('detail_level hover: its signature and docs.'),
  file: z.string(),
  line: z.number(),
  column: z.number(),
  end_line: z.number(),
  end_column: z.number(),
});
type FoundSymbol = z.infer<typeof foundSymbolOut>;

/** Exact is case-sensitive (what an agent asking for `unlink` means); the others are not. */
function matchKind(name: string, query: string): FoundSymbol['match'] {
  if (name === query) return 'exact';
  const n = name.toLowerCase();
  const q = query.toLowerCase();
  if (n.startsWith(q)) return 'prefix';
  if (n.includes(q)) return 'substring';
  return 'fuzzy';
}
const MATCH_ORDER = { exact: 0, prefix: 1, substring: 2, fuzzy: 3 };

/** Hover text kept per symbol: the signature and the start of its docs. */
const HOVER_CHARS = 400;

/**
 * Where the symbol's name is, from the start of its range on: servers whose workspace symbols
 * cover the whole declaration (tsserver: from `export`) would answer no hover at the range start.
 */
function nameAt(text: string, s: FoundSymbol): { line: number; column: number } {
  const lines = splitLines(text);
  for (let l = s.line; l < s.line + 5 && l <= lines.length; l++) {
    const chars = [...(lines[l - 1] ?? '')];
    const from = l === s.line ? s.column - 1 : 0;
    const at = chars.slice(from).join('').indexOf(s.name);
    if (at >= 0) return { line: l, column: from + [...chars.slice(from).join('').slice(0, at)].length + 1 };
  }
  return { line: s.line, column: s.column };
}

/** detail_level hover: each symbol of the page gets its hover (a symbol the server cannot hover keeps none). */
async function addHovers(ctx: ToolContext, symbols: FoundSymbol[]): Promise<void> {
  for (const s of symbols) {
    if (ctx.signal.aborted) return;
    try {
      const h = await ctx.workspace.openDocument(ctx.workspace.resolveFile(s.file));
      const position = toLspPosition(h.doc.text, nameAt(h.doc.text, s));
      const hover = await ctx.workspace.query<Hover | null>(h.conn, 'textDocument/hover', { textDocument: { uri: h.uri }, position }, ctx.signal);
      const text = hover ? hoverText(hover.contents).trim() : '';
      if (text) s.hover = text.length > HOVER_CHARS ? `${text.slice(0, HOVER_CHARS)}…` : text;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      ctx.logger.debug(`no hover for ${s.name} at ${s.file}:${s.line}: ${(err as Error).message}`);
    }
  }
}

function foundSymbols(ctx: ToolContext, conn: LspConnection, result: readonly (SymbolInformation | WorkspaceSymbol)[], args: { query: string; kind?: string | undefined }): FoundSymbol[] {
  const mapper = new PositionMapper(ctx.workspace, conn);
  const found: FoundSymbol[] = [];
  for (const s of result) {
    const kind = symbolKindName(s.kind);
    if (args.kind && kind !== args.kind.toLowerCase()) continue;
    const range = 'range' in s.location ? s.location.range : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const item: FoundSymbol = { name: s.name, kind, match: matchKind(s.name, args.query), ...mapper.location(s.location.uri, range) };
    if (s.containerName) item.container = s.containerName;
    found.push(item);
  }
  return found;
}

/**
 * The servers find_symbol asks: the one of `language`, else every running server and every
 * language the workspace has a project of (a search that skipped one would not be complete).
 */
export async function symbolServers(ctx: ToolContext, language: string | undefined): Promise<ServerDefinition[]> {
  const ws = ctx.workspace;
  await ws.ensureRoots(undefined, 'Call start_lsp with root_dir (the project directory) first.');
  if (language) return [ws.registry.forLanguage(language)];
  const root = ws.primaryRoot as string;
  const servers = new Set((await ws.liveConnections()).map((c) => c.server));
  for (const server of await projectLanguages(root, ws.registry)) servers.add(server);
  if (servers.size === 0) throw new UserError('unknown_language', `No project of a known language was found under ${root}. Pass language_id.`);
  return [...servers];
}

export const findSymbol = defineTool({
  name: 'find_symbol',
  title: 'Find symbol in workspace',
  description: 'Finds symbols by name in the workspace; exact matches first.',
  group: 'navigation',
  input: () => ({
    query: z.string().min(1).describe('Name or part of it.'),
    kind: z.string().optional().describe('Only this kind: class, function, method, variable, …'),
    language_id: z.string().optional().describe('Default: every language of the workspace.'),
    detail_level: z.enum(['basic', 'hover']).optional().describe('hover: add each symbol\'s hover (page size 20).'),
    ...readinessInput,
    ...pagingInput,
  }),
  output: () => ({
    ...readyOutput,
    ...pagingOutput,
    servers: z.array(serverOutcomeOutput).optional().describe('Every server asked; one with an error gave no answer, one partial searched part of the workspace (complete is then false).'),
    symbols: z.array(foundSymbolOut).optional(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    if (args.kind && !SYMBOL_KIND_NAMES.includes(args.kind.toLowerCase())) {
      throw new UserError('invalid_argument', `Unknown kind "${args.kind}". Use one of: ${SYMBOL_KIND_NAMES.join(', ')}.`);
    }
    const servers = await symbolServers(ctx, args.language_id);
    const asked = await fanOut<FoundSymbol[], NotReadyResult>(
      servers,
      (server) => ctx.workspace.connection(server),
      async (conn) => {
        const projects = await loadEveryProject(ctx, conn);
        const notReady = (await awaitReady(conn, args, ctx)) ?? coverageNotReady(ctx, conn, projects);
        if (notReady) return { stop: notReady };
        const result = await workspaceSymbols(ctx, conn, args.query, projects);
        return { value: foundSymbols(ctx, conn, result, args) };
      },
      ctx.signal,
    );
    if ('stop' in asked) return asked.stop;
    // Nothing answered: an error, not an empty list.
    if (asked.servers.every((s) => s.error !== undefined)) {
      throw new UserError('server_failed', `No server answered: ${asked.servers.map((s) => `${s.server} (${s.language}): ${s.error}`).join('; ')}`);
    }
    const all = asked.values.flat();
    all.sort((a, b) => MATCH_ORDER[a.match] - MATCH_ORDER[b.match] || compareStrings(a.file, b.file) || a.line - b.line);
    const withHover = args.detail_level === 'hover';
    const p = page(all, args.offset, args.limit, withHover ? 20 : 100);
    if (withHover) await addHovers(ctx, p.items);
    const complete = p.complete && asked.complete;
    return { ready: true, total: p.total, complete, offset: p.offset, limit: p.limit, returned: p.returned, servers: asked.servers, symbols: p.items };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const lines = (r.symbols ?? []).map(
      (s) => `${s.kind} ${s.container ? `${s.container}.` : ''}${s.name} ${s.file}:${s.line}:${s.column}${s.match === 'exact' ? '' : ` (${s.match})`}${s.hover ? `\n  ${s.hover.replace(/\n/g, '\n  ')}` : ''}`,
    );
    return [...failedServersText(r.servers), `${pageHeader(r, 'symbol(s)')}\n${lines.join('\n')}`.trim()].join('\n');
  },
});

export const symbolTools = [inspectSymbol, listSymbols, findSymbol];
