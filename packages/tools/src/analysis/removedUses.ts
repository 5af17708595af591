import { extname, join } from 'node:path';
import type { Position, Range } from 'vscode-languageserver-protocol';
import { isWithin } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { userOf } from './callGraph.js';
import { wordsInCode } from './codeWords.js';
import { locationTargets, requestLocations } from '../project/freshAnswer.js';
import { git } from './gitDiff.js';
import { compareLocations, type PositionMapper } from '../output/locations.js';
import { contains, symbolNamedAt, type SymbolTrees } from '../symbols/symbolTree.js';
import { qualifiedName, type SymbolUse } from '../symbols/symbolUses.js';
import { isTestFile } from './testFiles.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

/** Past this many occurrences of the name, the rest are not examined (and the answer says so). */
const MAX_OCCURRENCES = 300;

export interface RemovedUses {
  uses: SymbolUse[];
  /** Occurrences of the name not examined: past MAX_OCCURRENCES, or where the server failed to answer. */
  unexamined: number;
}

/**
 * The uses of a symbol that no longer exists: nobody can ask a server for references to it, so
 * its name is looked for (git grep, then only in code: not comments or strings) in the files of
 * the same server, and an occurrence the server now resolves to nothing is a use left behind. A
 * name that still resolves (another symbol of that name, or the symbol moved elsewhere) is not.
 */
export async function removedUses(
  ctx: ToolContext,
  conn: LspConnection,
  mapper: PositionMapper,
  trees: SymbolTrees,
  top: string,
  name: string,
  exclude: ReadonlySet<string>,
): Promise<RemovedUses> {
  const uses: SymbolUse[] = [];
  let asked = 0;
  let unexamined = 0;
  for (const rel of await filesNaming(ctx, top, name)) {
    const path = join(top, rel);
    if (exclude.has(path) || ctx.workspace.registry.forFile(path)?.server.id !== conn.server.id || !ctx.workspace.rootList.some((r) => isWithin(r, path))) continue;
    const handle = await ctx.workspace.openDocument(path);
    const ext = extname(path).toLowerCase();
    const tree = await trees.of(handle.uri);
    const occurrences: { position: Position; targets: { uri: string; range: Range }[] }[] = [];
    for (const position of wordsInCode(handle.doc.text, name, ext === '.py' || ext === '.pyi')) {
      // A declaration of that name (another type's method, a field) is no use of it.
      if (symbolNamedAt(tree, position)) continue;
      if (asked >= MAX_OCCURRENCES) {
        unexamined++;
        continue;
      }
      asked++;
      const targets = await definitions(ctx, conn, handle.uri, position);
      // The server could not look (gopls: a file no build of the package includes): not examined.
      if (targets) occurrences.push({ position, targets });
      else unexamined++;
    }
    for (const { position } of unresolved(handle.uri, occurrences)) {
      const loc = mapper.location(handle.uri, { start: position, end: position });
      const user = userOf(tree, position);
      uses.push({ file: loc.file, line: loc.line, column: loc.column, ...(user ? { user: qualifiedName(user) } : {}), test: isTestFile(loc.file) });
    }
  }
  return { uses: uses.sort(compareLocations), unexamined };
}

/** The files (relative to the top) where the name appears as a word, untracked ones included. */
async function filesNaming(ctx: ToolContext, top: string, name: string): Promise<string[]> {
  try {
    return (await git(top, ['grep', '-l', '-I', '-w', '-F', '--untracked', '-e', name, '--'], ctx.signal)).split('\n').filter(Boolean);
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    // git grep exits 1 when nothing matches.
    if ((err as { code?: unknown }).code === 1) return [];
    throw err;
  }
}

/**
 * The occurrences that resolve to nothing: no definition, or only the name's own occurrences in
 * this file that resolve to nothing (tsserver answers an import of a missing export with the
 * import itself, and a use of it with that import). Declarations, which resolve to themselves,
 * were left out before.
 */
function unresolved<T extends { position: Position; targets: { uri: string; range: Range }[] }>(uri: string, occurrences: readonly T[]): T[] {
  const out = new Set(occurrences.filter((o) => o.targets.length === 0));
  const at = (t: { uri: string; range: Range }) => occurrences.find((o) => t.uri === uri && contains(t.range, o.position));
  for (let grew = true; grew; ) {
    grew = false;
    for (const o of occurrences) {
      if (out.has(o)) continue;
      if (o.targets.every((t) => { const target = at(t); return target === o || (target !== undefined && out.has(target)); })) {
        out.add(o);
        grew = true;
      }
    }
  }
  return occurrences.filter((o) => out.has(o));
}

/** The definitions of the name at a position; undefined when the server failed to answer (no answer either way). */
async function definitions(ctx: ToolContext, conn: LspConnection, uri: string, position: Position): Promise<{ uri: string; range: Range }[] | undefined> {
  try {
    return locationTargets(await requestLocations(conn, ctx.workspace.registry, 'textDocument/definition', { textDocument: { uri }, position }, ctx.signal));
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return undefined;
  }
}
