import { extname, join } from 'node:path';
import { z } from 'zod';
import { isWithin } from '@agent-lsp/protocol';
import { fileImpactOutput, fileImpactText, groupByFile, impactOf } from '../blastRadius.js';
import { git, parseUnifiedDiff, repositoryTop, verifyRef, type ChangedFile } from '../gitDiff.js';
import { page, pageFields, pageHeader } from '../paging.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../readinessGate.js';
import { pagingInput, pagingOutput, readinessInput, readyOutput } from '../schemas.js';
import { CALLABLE_KINDS, SymbolTrees, TYPE_KINDS, type SymbolNode } from '../symbolTree.js';
import { TEST_FILE_RULE } from '../testFiles.js';
import { defineTool, READ_ONLY, type ToolContext } from '../toolDefinition.js';
import { classHead, positionAt } from '../typeHeads.js';

/** So many non-test uses make a change risky even when tests cover it. */
const MANY_USES = 10;

export const RISK_RULE =
  `high: used by non-test code in other files and (no test file uses it, or its signature changed, or ${MANY_USES}+ non-test uses); ` +
  'medium: used by non-test code in other files and by tests; low: used only by tests or only inside its own file.';

type Risk = 'high' | 'medium' | 'low';

function riskOf(nonTest: number, tests: number, signature: boolean): Risk {
  if (nonTest === 0) return 'low';
  if (tests === 0 || signature || nonTest >= MANY_USES) return 'high';
  return 'medium';
}

const changedSymbolOutput = z.object({
  name: z.string(),
  kind: z.string(),
  file: z.string(),
  line: z.number(),
  change: z.enum(['body', 'signature', 'added']).describe('signature: a changed line is in its declaration (name, parameters, bases).'),
  exported: z.boolean(),
  risk: z.enum(['high', 'medium', 'low']),
  test_references: z.number(),
  non_test_references: z.number(),
  used_in: z.array(fileImpactOutput).describe('Files using it, non-test first.'),
});

/** The innermost function, method or type around a line, else the top-level symbol there. */
function symbolAtLine(tree: readonly SymbolNode[], line: number): SymbolNode | undefined {
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
function signatureTouched(text: string, path: string, node: SymbolNode, lines: readonly number[]): boolean {
  const ext = extname(path).toLowerCase();
  const head = classHead(text, node.selectionRange.end, ext === '.py' || ext === '.pyi');
  const headEnd = positionAt(text, head.end).line;
  return lines.some((l) => l >= node.range.start.line && l <= Math.max(headEnd, node.selectionRange.end.line));
}

async function changedFiles(ctx: ToolContext, top: string, base: string, staged: boolean): Promise<ChangedFile[]> {
  const diff = await git(top, ['diff', '--no-color', '--no-ext-diff', '--unified=0', ...(staged ? ['--cached'] : []), base, '--'], ctx.signal);
  const files = parseUnifiedDiff(diff);
  if (!staged) {
    const untracked = await git(top, ['ls-files', '--others', '--exclude-standard', '-z'], ctx.signal);
    for (const path of untracked.split('\0').filter(Boolean)) files.push({ path, lines: [], status: 'added' });
  }
  return files;
}

export const detectChanges = defineTool({
  name: 'detect_changes',
  title: 'Detect changes and their risk',
  description: 'git diff against a ref → the symbols changed → who uses them (test / non-test) → a risk level per symbol.',
  group: 'analysis',
  input: () => ({
    base: z.string().optional().describe('Git ref to compare with, default HEAD.'),
    staged: z.boolean().optional().describe('Only staged changes.'),
    ...readinessInput,
    ...pagingInput,
  }),
  output: () => ({
    ...readyOutput,
    ...pagingOutput,
    base: z.string().optional(),
    risk_rule: z.string().optional(),
    test_rule: z.string().optional(),
    changed_files: z.array(z.object({ file: z.string(), status: z.string(), symbols: z.number() })).optional(),
    skipped_files: z.array(z.string()).optional().describe('Changed files no language server covers, deleted or outside the roots.'),
    symbols: z.array(changedSymbolOutput).optional().describe('Changed symbols, riskiest first (paged).'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    await ctx.workspace.ensureRoots(undefined, 'Call start_lsp with root_dir (a directory inside a git repository) first.');
    const root = ctx.workspace.primaryRoot as string;
    const base = args.base ?? 'HEAD';
    const top = await repositoryTop(root, ctx.signal);
    await verifyRef(top, base, ctx.signal);
    const trees = new SymbolTrees(ctx);
    const changed: { file: string; status: string; symbols: number }[] = [];
    const skipped: string[] = [];
    const symbols: z.infer<typeof changedSymbolOutput>[] = [];
    for (const f of await changedFiles(ctx, top, base, args.staged === true)) {
      const path = join(top, f.path);
      if (f.status === 'deleted' || !ctx.workspace.registry.forFile(path) || !ctx.workspace.rootList.some((r) => isWithin(r, path))) {
        skipped.push(`${ctx.workspace.display(path)}${f.status === 'deleted' ? ' (deleted)' : ''}`);
        continue;
      }
      const handle = await ctx.workspace.openDocument(path);
      const notReady = await awaitReady(handle.conn, args, ctx);
      if (notReady) return notReady;
      const text = handle.doc.text;
      const tree = await trees.of(handle.uri);
      const lines = f.status === 'added' ? [] : f.lines.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i - 1));
      const touched = new Map<SymbolNode, number[]>();
      if (f.status === 'added') for (const s of tree) touched.set(s, []);
      for (const l of lines) {
        const s = symbolAtLine(tree, l);
        if (s) touched.set(s, [...(touched.get(s) ?? []), l]);
      }
      changed.push({ file: ctx.workspace.display(path), status: f.status, symbols: touched.size });
      for (const [node, at] of touched) {
        const { impact, uses } = await impactOf(ctx, handle.conn, trees, handle.uri, path, text, node, false);
        const change = f.status === 'added' ? 'added' : signatureTouched(text, path, node, at) ? 'signature' : 'body';
        symbols.push({
          name: node.name,
          kind: impact.kind,
          file: impact.file,
          line: impact.line,
          change,
          exported: impact.exported,
          risk: riskOf(impact.non_test_references, impact.test_references, change === 'signature'),
          test_references: impact.test_references,
          non_test_references: impact.non_test_references,
          used_in: groupByFile(uses),
        });
      }
    }
    const order: Record<Risk, number> = { high: 0, medium: 1, low: 2 };
    // A total order, so that pages asked one after another never repeat or skip a symbol.
    symbols.sort((a, b) => order[a.risk] - order[b.risk] || b.non_test_references - a.non_test_references || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line);
    const p = page(symbols, args.offset, args.limit, 100);
    return {
      ready: true,
      ...pageFields(p),
      base,
      risk_rule: RISK_RULE,
      test_rule: TEST_FILE_RULE,
      changed_files: changed,
      ...(skipped.length > 0 ? { skipped_files: skipped } : {}),
      symbols: p.items,
    };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const out = [`Changes against ${r.base}: ${(r.changed_files ?? []).map((f) => `${f.file} (${f.status})`).join(', ') || 'none'}`];
    if (r.skipped_files) out.push(`skipped: ${r.skipped_files.join(', ')}`);
    out.push(pageHeader(r, 'changed symbol(s)'));
    for (const s of r.symbols ?? []) {
      out.push(`${s.risk.toUpperCase()} ${s.kind} ${s.name} ${s.file}:${s.line} (${s.change}${s.exported ? '' : ', not exported'}): ${s.non_test_references} non-test, ${s.test_references} test use(s)`);
      for (const f of s.used_in) out.push(`  ${fileImpactText(f)}`);
    }
    out.push(`risk: ${r.risk_rule ?? ''}`);
    return out.join('\n');
  },
});
