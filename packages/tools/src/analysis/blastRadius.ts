import { extname } from 'node:path';
import { z } from 'zod';
import { splitLines } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { compareStrings, PositionMapper } from '../output/locations.js';
import { symbolKindName } from '../symbols/symbolKinds.js';
import { receiverType } from './syncGuarded.js';
import type { SymbolNode, SymbolTrees } from '../symbols/symbolTree.js';
import { usesFromOtherFiles, type SymbolUse } from '../symbols/symbolUses.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

/** Go's rule for an exported name: its first letter is upper case (unicode.IsUpper). */
const UPPER_START = /^\p{Lu}/u;

/**
 * Whether other modules can use a top-level symbol, by each language's rule: Python names not
 * starting with `_`, TypeScript/JavaScript declarations that start with `export`, Go names that
 * start with a capital — for a method (gopls names it `(*T).M`), both M and its receiver type T, as
 * go/ast's IsExported on each (scope exported dropped every method before); everything else counts as
 * public.
 */
export function isExported(path: string, text: string, node: SymbolNode): boolean {
  const ext = extname(path).toLowerCase();
  if (ext === '.py' || ext === '.pyi') return !node.name.startsWith('_');
  if (ext === '.go') {
    const receiver = receiverType(node.name);
    return receiver === undefined ? UPPER_START.test(node.name) : UPPER_START.test(receiver) && UPPER_START.test(node.name.slice(node.name.lastIndexOf('.') + 1));
  }
  if (['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'].includes(ext)) {
    const line = splitLines(text)[node.range.start.line] ?? '';
    return /^\s*export\b/.test(line.slice(node.range.start.character)) || /^\s*export\b/.test(line);
  }
  return true;
}

export const symbolImpactOutput = z.object({
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number(),
  exported: z.boolean(),
  references: z.number().describe('From other files (transitive ones included when asked).'),
  test_references: z.number(),
  non_test_references: z.number(),
  sync_guarded: z.boolean().optional().describe('Go: the type, or a method\'s receiver type, holds a mutex, atomic or semaphore (absent for other languages).'),
});
export type SymbolImpact = z.infer<typeof symbolImpactOutput>;

export const fileImpactOutput = z.object({
  file: z.string(),
  test: z.boolean(),
  references: z.number(),
  uses: z.array(
    z.object({
      symbol: z.string(),
      line: z.number(),
      column: z.number(),
      user: z.string().optional(),
      level: z.number().optional().describe('2 when it uses a user of the symbol (include_transitive).'),
    }),
  ),
});
export type FileImpact = z.infer<typeof fileImpactOutput>;

interface Use extends SymbolUse {
  symbol: string;
  level: number;
}

/** The uses of one symbol from other files, and with `transitive` the uses of its non-test users too. */
export async function impactOf(
  ctx: ToolContext,
  conn: LspConnection,
  trees: SymbolTrees,
  uri: string,
  path: string,
  text: string,
  node: SymbolNode,
  transitive: boolean,
): Promise<{ impact: SymbolImpact; uses: Use[] }> {
  const mapper = new PositionMapper(ctx.workspace, conn);
  const direct = await usesFromOtherFiles(ctx, conn, mapper, trees, uri, node.selectionRange.start);
  const uses: Use[] = direct.map((u) => ({ ...u, symbol: node.name, level: 1 }));
  if (transitive) {
    const followed = new Set<string>();
    for (const u of direct) {
      if (u.test || !u.userAt) continue;
      const k = `${u.userAt.uri}#${u.userAt.position.line}:${u.userAt.position.character}`;
      if (followed.has(k)) continue;
      followed.add(k);
      const second = await usesFromOtherFiles(ctx, conn, mapper, trees, u.userAt.uri, u.userAt.position, new Set([uri]));
      uses.push(...second.map((s) => ({ ...s, symbol: node.name, level: 2 })));
    }
  }
  const tests = uses.filter((u) => u.test).length;
  const at = mapper.range(uri, node.selectionRange);
  return {
    impact: {
      name: node.name,
      kind: symbolKindName(node.kind),
      file: ctx.workspace.display(path),
      line: at.line,
      exported: isExported(path, text, node),
      references: uses.length,
      test_references: tests,
      non_test_references: uses.length - tests,
    },
    uses,
  };
}

/** Uses grouped by file: non-test files first, then by path. */
export function groupByFile(uses: readonly Use[]): FileImpact[] {
  const byFile = new Map<string, FileImpact>();
  for (const u of uses) {
    let f = byFile.get(u.file);
    if (!f) {
      f = { file: u.file, test: u.test, references: 0, uses: [] };
      byFile.set(u.file, f);
    }
    f.references++;
    f.uses.push({ symbol: u.symbol, line: u.line, column: u.column, ...(u.user ? { user: u.user } : {}), ...(u.level > 1 ? { level: u.level } : {}) });
  }
  return [...byFile.values()].sort((a, b) => Number(a.test) - Number(b.test) || compareStrings(a.file, b.file));
}

export function fileImpactText(f: FileImpact): string {
  const uses = f.uses.map((u) => `${u.line}:${u.column} ${u.symbol}${u.user ? ` in ${u.user}` : ''}${u.level ? ` (level ${u.level})` : ''}`).join('; ');
  return `${f.file}${f.test ? ' [test]' : ''} (${f.references}): ${uses}`;
}
