import { extname } from 'node:path';
import { SymbolKind } from 'vscode-languageserver-protocol';
import { splitLines } from '@agent-lsp/protocol';
import type { SymbolNode } from '../symbols/symbolTree.js';

/**
 * blast_radius' sync_guarded (the original agent-lsp's field, which its lsp-concurrency-audit skill
 * reads): whether a Go type holds a synchronisation primitive — a sync.Mutex or sync.RWMutex
 * (named or embedded, by value or pointer), a sync/atomic value, a semaphore.Weighted — and, for a
 * method, whether its receiver's type does. Read from the type's declaration text; whether each
 * method takes the lock before touching a field is not checked (the skill says so).
 */
const SYNC_PRIMITIVE = /\b(sync\.(RW)?Mutex|atomic\.[A-Z]\w*|semaphore\.Weighted)\b/;

/** `(*Hub).Add` or `(Hub).Add` (gopls' method names): the receiver type. */
export function receiverType(name: string): string | undefined {
  return /^\(\*?(\w+)(\[[^\]]*\])?\)\./.exec(name)?.[1];
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/[^\n]*/g, ' ');
}

/** The names of the Go struct types among `nodes` whose declaration holds a sync primitive. */
export function syncGuardedTypes(path: string, text: string, nodes: readonly SymbolNode[]): Set<string> {
  const guarded = new Set<string>();
  if (extname(path).toLowerCase() !== '.go') return guarded;
  const lines = splitLines(text);
  for (const n of nodes) {
    if (n.kind !== SymbolKind.Struct) continue;
    const { start, end } = n.range;
    const body = lines.slice(start.line, end.line + 1).join('\n');
    if (SYNC_PRIMITIVE.test(withoutComments(body))) guarded.add(n.name);
  }
  return guarded;
}

/** sync_guarded for a symbol of a Go file (undefined elsewhere: not computed). */
export function syncGuarded(path: string, node: SymbolNode, guardedTypes: ReadonlySet<string>): boolean | undefined {
  if (extname(path).toLowerCase() !== '.go') return undefined;
  return guardedTypes.has(receiverType(node.name) ?? node.name);
}
