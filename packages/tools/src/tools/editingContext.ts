import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { z } from 'zod';
import type { CallHierarchyItem, CallHierarchyOutgoingCall } from 'vscode-languageserver-protocol';
import { isNotReady, openReadyDocument } from '../project/documentQuery.js';
import { PositionMapper } from '../output/locations.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { readinessInput, readyOutput } from '../catalog/schemas.js';
import { symbolKindName } from '../symbols/symbolKinds.js';
import { CALLABLE_KINDS, SymbolTrees, TYPE_KINDS, type SymbolNode } from '../symbols/symbolTree.js';
import { usesFromOtherFiles } from '../symbols/symbolUses.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

/** Each list is cut at this many entries (the totals say how many there are). */
const LIST_LIMIT = 200;

const IMPORT_LINE: Record<string, RegExp> = {
  python: /^\s*(import\s|from\s+\S+\s+import\s)/,
  script: /^\s*(import\s|export\s.*\sfrom\s|.*\brequire\()/,
  go: /^\s*(import\s|"[^"]+"$|\w+\s+"[^"]+"$)/,
  c: /^\s*#\s*(include|import)\b/,
};

function importKind(path: string): RegExp | undefined {
  const ext = extname(path).toLowerCase();
  if (ext === '.py' || ext === '.pyi') return IMPORT_LINE['python'];
  if (['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'].includes(ext)) return IMPORT_LINE['script'];
  if (ext === '.go') return IMPORT_LINE['go'];
  if (['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.m', '.mm'].includes(ext)) return IMPORT_LINE['c'];
  return undefined;
}

/** Import lines; for Go only those inside `import (...)` blocks or single imports. */
function importsOf(path: string, text: string): { line: number; text: string }[] {
  const re = importKind(path);
  if (!re) return [];
  const go = extname(path) === '.go';
  const out: { line: number; text: string }[] = [];
  let inBlock = false;
  text.split(/\r\n|\r|\n/).forEach((l, i) => {
    if (go) {
      if (/^\s*import\s*\($/.test(l)) return void (inBlock = true);
      if (inBlock && /^\s*\)/.test(l)) return void (inBlock = false);
      if (inBlock ? l.trim() !== '' : /^\s*import\s/.test(l)) out.push({ line: i + 1, text: l.trim() });
      return;
    }
    if (re.test(l)) out.push({ line: i + 1, text: l.trim() });
  });
  return out;
}

const outlineEntry = z.object({ name: z.string(), kind: z.string(), container: z.string().optional(), line: z.number(), end_line: z.number() });
const callerEntry = z.object({
  symbol: z.string().describe('This file\'s symbol that is used.'),
  file: z.string(),
  line: z.number(),
  column: z.number(),
  user: z.string().optional().describe('The function, method or class the use is in.'),
  test: z.boolean(),
});
const calleeEntry = z.object({ from: z.string(), name: z.string(), kind: z.string(), file: z.string(), line: z.number(), column: z.number() });

function cut<T>(list: T[]): T[] {
  return list.slice(0, LIST_LIMIT);
}

export const getEditingContext = defineTool({
  name: 'get_editing_context',
  title: 'Editing context of a file',
  description: 'Before editing a file: its outline, imports, callers from other files and what it calls. ETag: if_none_match.',
  group: 'analysis',
  input: () => ({
    file_path: z.string(),
    if_none_match: z.string().optional().describe('The etag of an earlier answer: unchanged → not_modified.'),
    ...readinessInput,
  }),
  output: () => ({
    ...readyOutput,
    etag: z.string().optional().describe('Hash of the file text and this answer.'),
    not_modified: z.boolean().optional(),
    file: z.string().optional(),
    complete: z.boolean().optional().describe('false when a list was cut at 200 (the totals count all) or the server could not list what the file calls (notes).'),
    outline: z.array(outlineEntry).optional(),
    imports: z.array(z.object({ line: z.number(), text: z.string() })).optional(),
    callers_total: z.number().optional(),
    callers: z.array(callerEntry).optional(),
    calls_total: z.number().optional(),
    calls: z.array(calleeEntry).optional(),
    notes: z.array(z.string()).optional(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const { conn, uri } = doc.handle;
    const text = doc.handle.doc.text;
    const mapper = new PositionMapper(ctx.workspace, conn);
    const trees = new SymbolTrees(ctx);
    const tree = await trees.of(uri);
    const notes: string[] = [];

    const outline: z.infer<typeof outlineEntry>[] = [];
    const members: SymbolNode[] = [];
    for (const top of tree) {
      const r = mapper.range(uri, top.range);
      outline.push({ name: top.name, kind: symbolKindName(top.kind), line: r.line, end_line: r.end_line });
      members.push(top);
      if (!TYPE_KINDS.has(top.kind)) continue;
      for (const m of top.children) {
        const mr = mapper.range(uri, m.range);
        outline.push({ name: m.name, kind: symbolKindName(m.kind), container: top.name, line: mr.line, end_line: mr.end_line });
        if (CALLABLE_KINDS.has(m.kind)) members.push(m);
      }
    }

    const callers: z.infer<typeof callerEntry>[] = [];
    for (const top of tree) {
      for (const { userAt: _, ...use } of await usesFromOtherFiles(ctx, conn, mapper, trees, uri, top.selectionRange.start)) callers.push({ symbol: top.name, ...use });
    }

    const calls: z.infer<typeof calleeEntry>[] = [];
    // Calls the server could not list (no call hierarchy, or refused) leave the answer incomplete.
    let callsUnlisted = !conn.supports('textDocument/prepareCallHierarchy');
    if (!callsUnlisted) {
      const seen = new Set<string>();
      let refused = false;
      for (const fn of members.filter((m) => CALLABLE_KINDS.has(m.kind))) {
        const items = await conn
          .request<CallHierarchyItem[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position: fn.selectionRange.start }, { signal: ctx.signal })
          .catch(() => null);
        const item = items?.[0];
        if (!item) continue;
        const out = await conn.request<CallHierarchyOutgoingCall[] | null>('callHierarchy/outgoingCalls', { item }, { signal: ctx.signal }).catch((err: unknown) => {
          if (ctx.signal.aborted) throw err;
          refused = true;
          return null;
        });
        for (const c of out ?? []) {
          const loc = mapper.location(c.to.uri, c.to.selectionRange);
          // One entry per callee name and file: overloads (typeshed's sum, lib.d.ts's) are one to the agent.
          const k = `${fn.name}>${c.to.name}@${loc.file}`;
          if (seen.has(k)) continue;
          seen.add(k);
          calls.push({ from: fn.name, name: c.to.name, kind: symbolKindName(c.to.kind), file: loc.file, line: loc.line, column: loc.column });
        }
      }
      if (refused) notes.push(`${conn.server.displayName} refused outgoing calls: what this file calls is not (fully) listed.`);
      callsUnlisted = refused;
    } else {
      notes.push(`${conn.server.displayName} has no call hierarchy: what this file calls is not listed.`);
    }

    const imports = importsOf(doc.handle.path, text);
    // A cut list is said so, in the notes as well as by complete (the text shows the notes).
    for (const [name, list] of [['outline', outline], ['imports', imports]] as const) {
      if (list.length > LIST_LIMIT) notes.push(`${name} cut at ${LIST_LIMIT} of ${list.length} entries (list_symbols pages the outline).`);
    }
    const answer = {
      ready: true,
      file: doc.label,
      complete: [callers, calls, outline, imports].every((l) => l.length <= LIST_LIMIT) && !callsUnlisted,
      outline: cut(outline),
      imports: cut(imports),
      callers_total: callers.length,
      callers: cut(callers),
      calls_total: calls.length,
      calls: cut(calls),
      ...(notes.length > 0 ? { notes } : {}),
    };
    const etag = `"${createHash('sha256').update(text).update('\0').update(JSON.stringify(answer)).digest('hex').slice(0, 20)}"`;
    if (args.if_none_match === etag) return { ready: true, etag, not_modified: true };
    return { ...answer, etag };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    if (r.not_modified) return `Not modified (etag ${r.etag}).`;
    const out = [`${r.file} etag ${r.etag}`, 'outline:'];
    for (const s of r.outline ?? []) out.push(`${s.container ? '    ' : '  '}${s.kind} ${s.name} ${s.line}-${s.end_line}`);
    out.push(`imports (${r.imports?.length ?? 0}):`, ...(r.imports ?? []).map((i) => `  ${i.line}: ${i.text}`));
    const shown = (total: number | undefined, list: readonly unknown[] | undefined) => ((total ?? 0) > (list?.length ?? 0) ? `${total ?? 0}, first ${list?.length ?? 0} shown` : `${total ?? 0}`);
    out.push(`used from other files (${shown(r.callers_total, r.callers)}${(r.callers_total ?? 0) > (r.callers?.length ?? 0) ? '; find_references pages them all' : ''}):`);
    for (const c of r.callers ?? []) out.push(`  ${c.symbol} ← ${c.user ?? '<module>'} ${c.file}:${c.line}:${c.column}${c.test ? ' (test)' : ''}`);
    out.push(`calls (${shown(r.calls_total, r.calls)}):`, ...(r.calls ?? []).map((c) => `  ${c.from} → ${c.name} ${c.file}:${c.line}:${c.column}`));
    for (const n of r.notes ?? []) out.push(`NOTE: ${n}`);
    return out.join('\n');
  },
});
