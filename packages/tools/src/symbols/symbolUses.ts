import type { Location, Position } from 'vscode-languageserver-protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { userOf } from '../analysis/callGraph.js';
import { requestLocations } from '../project/freshAnswer.js';
import { compareLocations, type PositionMapper } from '../output/locations.js';
import { containerName, type SymbolNode, type SymbolTrees } from './symbolTree.js';
import { isTestFile } from '../analysis/testFiles.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

/** A reference to a symbol from another file, with the symbol it is inside (its "user"). */
export interface SymbolUse {
  file: string;
  line: number;
  column: number;
  /** The enclosing function, method or class ("Class.method"); absent at module level. */
  user?: string | undefined;
  test: boolean;
  /** Where the user is named (to follow uses transitively); not part of answers. */
  userAt?: { uri: string; position: Position } | undefined;
}

/** "Class.method" of a symbol. */
export function qualifiedName(node: SymbolNode): string {
  return [containerName(node), node.name].filter(Boolean).join('.');
}

/** Every reference to the symbol at `position` of `uri` from files other than `uri` (and `exclude`). */
export async function usesFromOtherFiles(
  ctx: ToolContext,
  conn: LspConnection,
  mapper: PositionMapper,
  trees: SymbolTrees,
  uri: string,
  position: Position,
  exclude: ReadonlySet<string> = new Set(),
): Promise<SymbolUse[]> {
  if (!conn.supports('textDocument/references')) return [];
  const params = { textDocument: { uri }, position, context: { includeDeclaration: false } };
  const refs = ((await requestLocations(conn, ctx.workspace.registry, 'textDocument/references', params, ctx.signal)) as Location[] | null) ?? [];
  const uses: SymbolUse[] = [];
  for (const ref of refs) {
    if (ref.uri === uri || exclude.has(ref.uri)) continue;
    const loc = mapper.location(ref.uri, ref.range);
    const user = userOf(await trees.of(ref.uri), ref.range.start);
    const name = user ? qualifiedName(user) : undefined;
    uses.push({
      file: loc.file,
      line: loc.line,
      column: loc.column,
      ...(name ? { user: name } : {}),
      test: isTestFile(loc.file),
      ...(user ? { userAt: { uri: ref.uri, position: user.selectionRange.start } } : {}),
    });
  }
  return uses.sort(compareLocations);
}
