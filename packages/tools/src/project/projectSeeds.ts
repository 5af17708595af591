import { dirname, relative, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findSeedFile, readDiskText, walkSourceTreeAsync, type LspConnection } from '@agent-lsp/lsp';
import { pathToUri, uriToPath, SymbolKind } from '@agent-lsp/protocol';
import type { SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import type { ToolContext } from '../catalog/toolDefinition.js';
import { ASK_AGAIN_DELAYS_MS } from '@agent-lsp/workspace';
import type { NotReadyResult } from './readinessGate.js';

/** Project files whose directory is one tsserver project. */
const PROJECT_FILES = new Set(['tsconfig.json', 'jsconfig.json']);
/**
 * At most this many projects stay loaded for workspace-wide searches (each costs tsserver memory);
 * the others are visited one at a time during each search (opened, searched, closed).
 */
export const MAX_SEEDED_PROJECTS = 64;

export interface ProjectCoverage {
  /** One open file of each loaded project (empty for servers that index the whole root). */
  files: string[];
  /** One file of each project past MAX_SEEDED_PROJECTS: opened only while it is searched. */
  visits: string[];
  /** Files whose directory the server had not indexed after a few seconds (indexesOpenedDirectories). */
  notIndexed?: string[];
}

function isUnder(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep));
}

/** The innermost project directory holding `path`. */
function projectOf(path: string, projectDirs: readonly string[]): string | undefined {
  return projectDirs.filter((d) => isUnder(path, d)).sort((a, b) => b.length - a.length)[0];
}

/**
 * tsserver (and typescript-go) answers workspace/symbol only from the projects it has loaded, and it loads a project
 * only for an open file of it: in a workspace of several tsconfig projects (a monorepo, or
 * fixtures side by side) a search would silently miss every project nobody opened. This opens one
 * source file of each project under the primary root that has no open document yet. Servers whose
 * workspace index covers the whole root (pyright, gopls, clangd) need nothing and get nothing.
 */
export async function loadEveryProject(ctx: ToolContext, conn: LspConnection): Promise<ProjectCoverage> {
  const root = ctx.workspace.primaryRoot;
  const byDirectory = conn.server.indexesOpenedDirectories === true;
  // typescript-go and vtsls too load a project only for an open file (tsgo then searches every loaded one).
  if ((!byDirectory && !['tsserver', 'tsgo', 'vtsls'].includes(conn.server.readiness)) || root === undefined) return { files: [], visits: [] };
  const exts = Object.keys(conn.server.extensions);
  // terraform-ls: every directory holding a file of its first language is a module.
  const moduleExts = exts.filter((e) => conn.server.extensions[e] === conn.server.languageIds[0]);
  const projectDirs: string[] = [];
  const firstFileOf = new Map<string, string>();
  for await (const path of walkSourceTreeAsync(root, { maxDepth: 8 })) {
    const name = path.slice(path.lastIndexOf(sep) + 1);
    if (!byDirectory && PROJECT_FILES.has(name)) projectDirs.push(dirname(path));
    if (byDirectory && moduleExts.some((e) => name.endsWith(e)) && !firstFileOf.has(dirname(path))) {
      firstFileOf.set(dirname(path), path);
      projectDirs.push(dirname(path));
    }
  }
  if (projectDirs.length === 0) projectDirs.push(root);
  const openByProject = new Map<string, string>();
  for (const uri of conn.documents.uris()) {
    const path = uriToPath(uri);
    const project = path === undefined ? undefined : projectOf(path, projectDirs);
    if (path !== undefined && project !== undefined && !openByProject.has(project)) openByProject.set(project, path);
  }
  const toLoad = projectDirs.filter((dir) => !openByProject.has(dir));
  const seedOf = (dir: string) => (byDirectory ? firstFileOf.get(dir) : (findSeedFile(dir, exts.filter((e) => e.includes('ts')), 4) ?? findSeedFile(dir, exts, 4)));
  const visits: string[] = [];
  for (const dir of toLoad) {
    const seed = seedOf(dir);
    if (!seed) continue;
    if (openByProject.size >= MAX_SEEDED_PROJECTS) {
      visits.push(seed);
      continue;
    }
    await ctx.workspace.openDocument(seed);
    openByProject.set(dir, seed);
  }
  const files = [...openByProject.values()];
  return { files, visits, ...(byDirectory ? { notIndexed: await notIndexed(ctx, conn, files) } : {}) };
}

/**
 * The files, one open in each directory, whose directory workspace/symbol does not list yet:
 * terraform-ls indexes a module in the background once a file of it is opened and answers
 * workspace/symbol empty for it until then (another call may have just opened it). It publishes
 * nothing for a clean module, so its own listing is the sign: asked again for a few seconds.
 */
async function notIndexed(ctx: ToolContext, conn: LspConnection, files: readonly string[]): Promise<string[]> {
  let missing = [...files];
  // Paused between listings as a void answer is asked again: ~5 s in all.
  for (const delay of [0, ...ASK_AGAIN_DELAYS_MS]) {
    if (delay > 0) await sleep(delay, undefined, { signal: ctx.signal });
    const listed = (await conn.request<IndexedSymbol[] | null>('workspace/symbol', { query: '' }, { signal: ctx.signal })) ?? [];
    const dirs = new Set(listed.map((s) => uriToPath(s.location.uri)).filter((p): p is string => p !== undefined).map((p) => dirname(p)));
    missing = missing.filter((f) => !dirs.has(dirname(f)));
    if (missing.length === 0) break;
  }
  return missing;
}

/** Not ready while a directory the search covers was not indexed (indexesOpenedDirectories). */
export function coverageNotReady(ctx: ToolContext, conn: LspConnection, coverage: ProjectCoverage): NotReadyResult | undefined {
  const missing = coverage.notIndexed ?? [];
  if (missing.length === 0) return undefined;
  return { ready: false, state: 'indexing', progress: { title: `${conn.server.displayName} has not indexed the directory of ${missing.map((f) => ctx.workspace.display(f)).join(', ')} yet` } };
}

type IndexedSymbol = SymbolInformation | WorkspaceSymbol;

/** tsserver's navto item (protocol.NavtoItem), as typescript.tsserverRequest passes it through. */
interface NavtoItem {
  name: string;
  kind: string;
  file: string;
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  containerName?: string;
}

/** tsserver's kinds as typescript-language-server maps them (its symbolKindsMapping). */
const TS_SYMBOL_KINDS: Record<string, SymbolKind> = {
  'enum member': SymbolKind.Constant,
  'JSX attribute': SymbolKind.Property,
  'local class': SymbolKind.Class,
  'local function': SymbolKind.Function,
  class: SymbolKind.Class,
  const: SymbolKind.Constant,
  constructor: SymbolKind.Constructor,
  enum: SymbolKind.Enum,
  field: SymbolKind.Field,
  file: SymbolKind.File,
  function: SymbolKind.Function,
  getter: SymbolKind.Method,
  interface: SymbolKind.Interface,
  method: SymbolKind.Method,
  module: SymbolKind.Module,
  property: SymbolKind.Property,
  setter: SymbolKind.Method,
};

/**
 * navto in the project of `file`, named explicitly (typescript.tsserverRequest): the plain
 * workspace/symbol searches the project of whichever document the server touched last, and any
 * concurrent request (another call, a speculation) may touch another one in between. Undefined
 * when the server does not take the command.
 */
async function navtoInProjectOf(ctx: ToolContext, conn: LspConnection, file: string, query: string): Promise<SymbolInformation[] | undefined> {
  const answer = await conn
    .request<{ body?: NavtoItem[] } | NavtoItem[] | null>('workspace/executeCommand', { command: 'typescript.tsserverRequest', arguments: ['navto', { file, searchValue: query }] }, { signal: ctx.signal })
    .catch(() => undefined);
  const items = Array.isArray(answer) ? answer : answer?.body;
  if (!Array.isArray(items)) return undefined;
  return items.map((item) => ({
    name: item.name,
    kind: TS_SYMBOL_KINDS[item.kind] ?? SymbolKind.Variable,
    ...(item.containerName ? { containerName: item.containerName } : {}),
    location: {
      uri: pathToUri(item.file),
      range: { start: { line: item.start.line - 1, character: item.start.offset - 1 }, end: { line: item.end.line - 1, character: item.end.offset - 1 } },
    },
  }));
}

/**
 * workspace/symbol over the whole workspace. typescript-language-server asks tsserver's navto for
 * the project of the document it last touched only, so there it is asked once per project, each
 * time after touching (documentSymbol) a file of that project, and the answers are merged.
 */
export async function workspaceSymbols(ctx: ToolContext, conn: LspConnection, query: string, coverage: ProjectCoverage): Promise<IndexedSymbol[]> {
  const ask = () => ctx.workspace.query<IndexedSymbol[] | null>(conn, 'workspace/symbol', { query }, ctx.signal);
  // typescript-go answers from every project it has loaded, terraform-ls from every module it indexed: one search covers them all.
  if ((coverage.files.length <= 1 || conn.server.readiness === 'tsgo' || conn.server.indexesOpenedDirectories) && coverage.visits.length === 0) return (await ask()) ?? [];
  const seen = new Set<string>();
  const merged: IndexedSymbol[] = [];
  const searchFrom = async (file: string) => {
    let found: IndexedSymbol[] | undefined = await navtoInProjectOf(ctx, conn, file, query);
    if (!found) {
      await conn.request('textDocument/documentSymbol', { textDocument: { uri: pathToUri(file) } }, { signal: ctx.signal });
      found = (await conn.request<IndexedSymbol[] | null>('workspace/symbol', { query }, { signal: ctx.signal })) ?? [];
    }
    for (const s of found) {
      const key = JSON.stringify([s.name, s.kind, s.location]);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(s);
    }
  };
  // One project at a time, in this section: the touch and the search must not interleave.
  for (const file of coverage.files) await searchFrom(file);
  // Projects past the cap: each loaded only while searched, so every project is searched.
  for (const file of coverage.visits) {
    const uri = pathToUri(file);
    const route = ctx.workspace.registry.forFile(file);
    const opened = !conn.documents.get(uri);
    if (opened) {
      const disk = await readDiskText(file);
      if (!disk || !route) continue;
      conn.documents.sync(uri, route.languageId, disk.text, { internal: true, disk: disk.state });
    }
    try {
      await searchFrom(file);
    } finally {
      if (opened && conn.documents.get(uri)?.internal) conn.documents.close(uri);
    }
  }
  return merged;
}
