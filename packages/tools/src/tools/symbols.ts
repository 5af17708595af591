import { z } from 'zod';
import type {
  DocumentSymbol,
  Hover,
  MarkedString,
  MarkupContent,
  SymbolInformation,
  WorkspaceSymbol,
} from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { isNotReady, openReadyDocument, positionIn } from '../documentQuery.js';
import { detectLanguages } from '../languageDetection.js';
import { compareStrings, PositionMapper } from '../locations.js';
import { page, pageHeader } from '../paging.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../readinessGate.js';
import { pagingInput, pagingOutput, positionInput, readinessInput, readyOutput } from '../schemas.js';
import { SYMBOL_KIND_NAMES, symbolKindName } from '../symbolKinds.js';
import { defineTool, READ_ONLY } from '../toolDefinition.js';

function hoverText(contents: Hover['contents']): string {
  const one = (c: MarkedString | MarkupContent): string =>
    typeof c === 'string' ? c : 'kind' in c ? c.value : '```' + c.language + '\n' + c.value + '\n```';
  return Array.isArray(contents) ? contents.map(one).join('\n\n') : one(contents);
}

export const inspectSymbol = defineTool({
  name: 'inspect_symbol',
  title: 'Inspect symbol (hover)',
  description: 'Type, signature and documentation of the symbol at a position (hover).',
  group: 'analysis',
  input: { ...positionInput, ...readinessInput },
  output: {
    ...readyOutput,
    found: z.boolean().optional(),
    contents: z.string().optional().describe('Markdown: signature and documentation.'),
    range: z.object({ line: z.number(), column: z.number(), end_line: z.number(), end_column: z.number() }).optional(),
  },
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const hover = await conn.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: positionIn(doc, args) }, { signal: ctx.signal });
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
  depth: z.number(),
  line: z.number(),
  column: z.number(),
  end_line: z.number(),
  end_column: z.number(),
});
type SymbolOut = z.infer<typeof symbolOut>;

export const listSymbols = defineTool({
  name: 'list_symbols',
  title: 'List symbols in a file',
  description: 'A file\'s outline: classes, functions, methods, with ranges and nesting.',
  group: 'analysis',
  input: { file_path: positionInput.file_path, ...readinessInput, ...pagingInput },
  output: { ...readyOutput, ...pagingOutput, symbols: z.array(symbolOut).optional() },
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const result = await conn.request<DocumentSymbol[] | SymbolInformation[] | null>('textDocument/documentSymbol', { textDocument: { uri } }, { signal: ctx.signal });
    const mapper = new PositionMapper(ctx.workspace, conn);
    const flat: SymbolOut[] = [];
    const walk = (symbols: DocumentSymbol[], depth: number, container: string | undefined) => {
      for (const s of symbols) {
        const item: SymbolOut = { name: s.name, kind: symbolKindName(s.kind), depth, ...mapper.range(uri, s.selectionRange) };
        const full = mapper.range(uri, s.range);
        item.end_line = full.end_line;
        item.end_column = full.end_column;
        if (s.detail) item.detail = s.detail;
        if (container) item.container = container;
        flat.push(item);
        if (s.children) walk(s.children, depth + 1, s.name);
      }
    };
    const list = result ?? [];
    if (list.length > 0 && 'location' in (list[0] as object)) {
      for (const s of list as SymbolInformation[]) {
        const item: SymbolOut = { name: s.name, kind: symbolKindName(s.kind), depth: s.containerName ? 1 : 0, ...mapper.range(uri, s.location.range) };
        if (s.containerName) item.container = s.containerName;
        flat.push(item);
      }
    } else {
      walk(list as DocumentSymbol[], 0, undefined);
    }
    const p = page(flat, args.offset, args.limit, 500);
    return { ready: true, total: p.total, complete: p.complete, offset: p.offset, limit: p.limit, returned: p.returned, symbols: p.items };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const lines = (r.symbols ?? []).map((s) => `${'  '.repeat(s.depth)}${s.kind} ${s.name}${s.detail ? ` ${s.detail}` : ''} (${s.line}:${s.column}-${s.end_line}:${s.end_column})`);
    return `${pageHeader(r, 'symbol(s)')}\n${lines.join('\n')}`.trim();
  },
});

const foundSymbolOut = z.object({
  name: z.string(),
  kind: z.string(),
  container: z.string().optional(),
  match: z.enum(['exact', 'prefix', 'substring', 'fuzzy']).describe('How the name matches the query; exact matches come first.'),
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

async function symbolConnections(ctx: Parameters<typeof listSymbols.handler>[1], language: string | undefined): Promise<LspConnection[]> {
  const ws = ctx.workspace;
  await ws.ensureRoots();
  if (language) return [await ws.connection(ws.registry.forLanguage(language))];
  // Every language of the workspace, not only the servers already running: a search that skipped
  // one would not be complete.
  const root = ws.primaryRoot as string;
  const servers = new Set((await ws.liveConnections()).map((c) => c.server));
  for (const d of detectLanguages(root, ws.registry)) if (d.server.resolve(root) !== undefined) servers.add(d.server);
  if (servers.size === 0) throw new UserError('unknown_language', `No source files of a known language were found under ${root}. Pass language_id.`);
  return Promise.all([...servers].map((s) => ws.connection(s)));
}

export const findSymbol = defineTool({
  name: 'find_symbol',
  title: 'Find symbol in workspace',
  description: 'Finds symbols by name in the workspace; exact matches first.',
  group: 'navigation',
  input: {
    query: z.string().min(1).describe('Name or part of it.'),
    kind: z.string().optional().describe('Only this kind: class, function, method, variable, …'),
    language_id: z.string().optional().describe('Default: every language present.'),
    ...readinessInput,
    ...pagingInput,
  },
  output: { ...readyOutput, ...pagingOutput, symbols: z.array(foundSymbolOut).optional() },
  annotations: READ_ONLY,
  async handler(args, ctx) {
    if (args.kind && !SYMBOL_KIND_NAMES.includes(args.kind.toLowerCase())) {
      throw new UserError('invalid_argument', `Unknown kind "${args.kind}". Use one of: ${SYMBOL_KIND_NAMES.join(', ')}.`);
    }
    const conns = await symbolConnections(ctx, args.language_id);
    const all: FoundSymbol[] = [];
    for (const conn of conns) {
      const notReady = await awaitReady(conn, args, ctx);
      if (notReady) return notReady;
      const result = await conn.request<(SymbolInformation | WorkspaceSymbol)[] | null>('workspace/symbol', { query: args.query }, { signal: ctx.signal });
      const mapper = new PositionMapper(ctx.workspace, conn);
      for (const s of result ?? []) {
        const kind = symbolKindName(s.kind);
        if (args.kind && kind !== args.kind.toLowerCase()) continue;
        const range = 'range' in s.location ? s.location.range : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
        const item: FoundSymbol = { name: s.name, kind, match: matchKind(s.name, args.query), ...mapper.location(s.location.uri, range) };
        if (s.containerName) item.container = s.containerName;
        all.push(item);
      }
    }
    all.sort((a, b) => MATCH_ORDER[a.match] - MATCH_ORDER[b.match] || compareStrings(a.file, b.file) || a.line - b.line);
    const p = page(all, args.offset, args.limit, 100);
    return { ready: true, total: p.total, complete: p.complete, offset: p.offset, limit: p.limit, returned: p.returned, symbols: p.items };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const lines = (r.symbols ?? []).map((s) => `${s.kind} ${s.container ? `${s.container}.` : ''}${s.name} ${s.file}:${s.line}:${s.column}${s.match === 'exact' ? '' : ` (${s.match})`}`);
    return `${pageHeader(r, 'symbol(s)')}\n${lines.join('\n')}`.trim();
  },
});

export const symbolTools = [inspectSymbol, listSymbols, findSymbol];
