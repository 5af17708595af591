import { extname } from 'node:path';
import { CALLABLE_KINDS, TYPE_KINDS, walkSymbols, type SymbolNode } from '../symbols/symbolTree.js';
import { classHead, positionAt } from './typeHeads.js';

/**
 * Which symbols a diff changed, read from both sides of every hunk: the new text's changed lines
 * name the symbols changed or added, the base's changed or removed lines name the symbols changed
 * or removed. A symbol is the same on both sides when its path (kinds and names from the top, and
 * which of its namesakes it is) is. A pure deletion touches only the base's lines, so the unchanged
 * symbol next to it is not flagged.
 */

/** One side of a file: its text, its symbols and its changed lines (0-based); absent when the file does not exist there. */
export interface FileSide {
  path: string;
  text: string;
  tree: readonly SymbolNode[];
  lines: readonly number[];
}

export interface SymbolChanges {
  /** New-side symbols whose body or declaration changed. */
  changed: { node: SymbolNode; signature: boolean }[];
  /** New-side symbols the base did not have (outermost only). */
  added: SymbolNode[];
  /** Base-side symbols the new text does not have (outermost only). */
  removed: SymbolNode[];
}

/** The innermost function, method or type around a line, else the top-level symbol there. */
export function symbolAtLine(tree: readonly SymbolNode[], line: number): SymbolNode | undefined {
  let found: SymbolNode | undefined;
  let level = tree;
  for (let depth = 0; ; depth++) {
    const next = level.find((s) => s.range.start.line <= line && line <= s.range.end.line);
    if (!next) return found;
    if (depth === 0 || CALLABLE_KINDS.has(next.kind) || TYPE_KINDS.has(next.kind)) found = next;
    level = next.children;
  }
}

/** Whether any changed (0-based) line falls in the symbol's declaration: from its start to the end of its head. */
export function signatureTouched(side: FileSide, node: SymbolNode, lines: readonly number[]): boolean {
  const ext = extname(side.path).toLowerCase();
  const head = classHead(side.text, node.selectionRange.end, ext === '.py' || ext === '.pyi');
  const headEnd = positionAt(side.text, head.end).line;
  return lines.some((l) => l >= node.range.start.line && l <= Math.max(headEnd, node.selectionRange.end.line));
}

/** Each symbol's path, `kind:name#n/kind:name#n` (n counts namesakes under one parent), both ways. */
function byPath(tree: readonly SymbolNode[]): { node: Map<string, SymbolNode>; path: Map<SymbolNode, string> } {
  const path = new Map<SymbolNode, string>();
  const node = new Map<string, SymbolNode>();
  walkSymbols(tree, (s) => {
    const prefix = s.parent ? `${path.get(s.parent) ?? ''}/` : '';
    let n = 0;
    while (node.has(`${prefix}${s.kind}:${s.name}#${n}`)) n++;
    const at = `${prefix}${s.kind}:${s.name}#${n}`;
    path.set(s, at);
    node.set(at, s);
  });
  return { node, path };
}

function outermost(nodes: ReadonlySet<SymbolNode>): SymbolNode[] {
  const covered = (s: SymbolNode): boolean => {
    for (let p = s.parent; p; p = p.parent) if (nodes.has(p)) return true;
    return false;
  };
  return [...nodes].filter((s) => !covered(s));
}

export function symbolChanges(base: FileSide | undefined, current: FileSide | undefined): SymbolChanges {
  const oldPaths = byPath(base?.tree ?? []);
  const newPaths = byPath(current?.tree ?? []);
  const changed = new Map<SymbolNode, boolean>();
  const added = new Set<SymbolNode>();
  const removed = new Set<SymbolNode>();
  const touch = (node: SymbolNode, signature: boolean) => changed.set(node, (changed.get(node) ?? false) || signature);
  if (current) {
    // A file the base did not have: every symbol in it is new.
    const lines = base ? current.lines : current.tree.map((s) => s.range.start.line);
    for (const l of lines) {
      const s = symbolAtLine(current.tree, l);
      if (!s) continue;
      if (!oldPaths.node.has(newPaths.path.get(s) ?? '')) added.add(s);
      else touch(s, signatureTouched(current, s, [l]));
    }
  }
  if (base) {
    const lines = current ? base.lines : base.tree.map((s) => s.range.start.line);
    for (const l of lines) {
      const s = symbolAtLine(base.tree, l);
      if (!s) continue;
      const now = newPaths.node.get(oldPaths.path.get(s) ?? '');
      if (!now) removed.add(s);
      else touch(now, signatureTouched(base, s, [l]));
    }
  }
  for (const s of added) changed.delete(s);
  return { changed: [...changed].map(([node, signature]) => ({ node, signature })), added: outermost(added), removed: outermost(removed) };
}
