import { dirname, relative, sep } from 'node:path';
import { findSeedFile, walkSourceTreeAsync, type LspConnection } from '@agent-lsp/lsp';
import { pathToUri, uriToPath } from '@agent-lsp/protocol';
import type { SymbolInformation, WorkspaceSymbol } from 'vscode-languageserver-protocol';
import type { ToolContext } from './toolDefinition.js';

/** Project files whose directory is one tsserver project. */
const PROJECT_FILES = new Set(['tsconfig.json', 'jsconfig.json']);
/** At most this many projects are loaded for one workspace-wide search (each costs tsserver memory). */
export const MAX_SEEDED_PROJECTS = 64;

export interface ProjectCoverage {
  /** One open file of each loaded project (empty for servers that index the whole root). */
  files: string[];
  /** Projects left unloaded because there were more than MAX_SEEDED_PROJECTS. */
  unloaded: number;
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
  // typescript-go too loads a project only for an open file (it then searches every loaded one).
  if ((conn.server.readiness !== 'tsserver' && conn.server.readiness !== 'tsgo') || root === undefined) return { files: [], unloaded: 0 };
  const exts = Object.keys(conn.server.extensions);
  const projectDirs: string[] = [];
  for await (const path of walkSourceTreeAsync(root, { maxDepth: 8 })) {
    const name = path.slice(path.lastIndexOf(sep) + 1);
    if (PROJECT_FILES.has(name)) projectDirs.push(dirname(path));
  }
  if (projectDirs.length === 0) projectDirs.push(root);
  const openByProject = new Map<string, string>();
  for (const uri of conn.documents.uris()) {
    const path = uriToPath(uri);
    const project = path === undefined ? undefined : projectOf(path, projectDirs);
    if (path !== undefined && project !== undefined && !openByProject.has(project)) openByProject.set(project, path);
  }
  const toLoad = projectDirs.filter((dir) => !openByProject.has(dir));
  const loadable = toLoad.slice(0, MAX_SEEDED_PROJECTS);
  for (const dir of loadable) {
    const seed = findSeedFile(dir, exts.filter((e) => e.includes('ts')), 4) ?? findSeedFile(dir, exts, 4);
    if (seed) {
      await ctx.workspace.openDocument(seed);
      openByProject.set(dir, seed);
    }
  }
  return { files: [...openByProject.values()], unloaded: toLoad.length - loadable.length };
}

type IndexedSymbol = SymbolInformation | WorkspaceSymbol;

/**
 * workspace/symbol over the whole workspace. typescript-language-server asks tsserver's navto for
 * the project of the document it last touched only, so there it is asked once per project, each
 * time after touching (documentSymbol) a file of that project, and the answers are merged.
 */
export async function workspaceSymbols(ctx: ToolContext, conn: LspConnection, query: string, files: readonly string[]): Promise<IndexedSymbol[]> {
  const ask = () => ctx.workspace.query<IndexedSymbol[] | null>(conn, 'workspace/symbol', { query }, ctx.signal);
  // typescript-go answers from every project it has loaded: one search covers them all.
  if (files.length <= 1 || conn.server.readiness === 'tsgo') return (await ask()) ?? [];
  const seen = new Set<string>();
  const merged: IndexedSymbol[] = [];
  // One project at a time, in this section: the touch and the search must not interleave.
  for (const file of files) {
    await conn.request('textDocument/documentSymbol', { textDocument: { uri: pathToUri(file) } }, { signal: ctx.signal });
    for (const s of (await conn.request<IndexedSymbol[] | null>('workspace/symbol', { query }, { signal: ctx.signal })) ?? []) {
      const key = JSON.stringify([s.name, s.kind, s.location]);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(s);
    }
  }
  return merged;
}
