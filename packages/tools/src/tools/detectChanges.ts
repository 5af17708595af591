import { join } from 'node:path';
import { z } from 'zod';
import { isWithin } from '@agent-lsp/protocol';
import { textAtRef, symbolsOfText } from '../analysis/baseSymbols.js';
import { fileImpactOutput, fileImpactText, groupByFile, impactOf, isExported } from '../analysis/blastRadius.js';
import { git, parseUnifiedDiff, repositoryTop, verifyRef, type ChangedFile } from '../analysis/gitDiff.js';
import { page, pageFields, pageHeader } from '../output/paging.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { pagingInput, pagingOutput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { PositionMapper } from '../output/locations.js';
import { removedUses } from '../analysis/removedUses.js';
import { symbolChanges, type FileSide } from '../analysis/symbolChanges.js';
import { symbolKindName } from '../symbols/symbolKinds.js';
import { SymbolTrees } from '../symbols/symbolTree.js';
import { TEST_FILE_RULE } from '../analysis/testFiles.js';
import { defineTool, READ_ONLY, type ToolContext } from '../catalog/toolDefinition.js';

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
  change: z
    .enum(['body', 'signature', 'added', 'removed', 'moved'])
    .describe(
      'signature: a changed line is in its declaration (name, parameters, bases); removed: the base had it, the new text does not (file and line are the base\'s); moved: its file was renamed and uses that still name it at the old path are left behind.',
    ),
  exported: z.boolean(),
  risk: z.enum(['high', 'medium', 'low']),
  test_references: z.number(),
  non_test_references: z.number(),
  used_in: z.array(fileImpactOutput).describe('Files using it, non-test first.'),
  found_by: z
    .literal('unresolved_name')
    .optional()
    .describe('removed, moved: its uses are the occurrences of its name in code that the server no longer resolves (it cannot be asked for references to a symbol that is not there).'),
  unexamined_occurrences: z.number().optional().describe('removed, moved: occurrences of its name past the limit, not examined.'),
});

async function changedFiles(ctx: ToolContext, top: string, base: string, staged: boolean): Promise<ChangedFile[]> {
  const diff = await git(top, ['diff', '--no-color', '--no-ext-diff', '--unified=0', '-M', ...(staged ? ['--cached'] : []), base, '--'], ctx.signal);
  const files = parseUnifiedDiff(diff);
  if (!staged) {
    const untracked = await git(top, ['ls-files', '--others', '--exclude-standard', '-z'], ctx.signal);
    for (const path of untracked.split('\0').filter(Boolean)) files.push({ path, lines: [], oldLines: [], status: 'added' });
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
    changed_files: z.array(z.object({ file: z.string(), status: z.string(), from: z.string().optional().describe('renamed: its path at the base.'), symbols: z.number() })).optional(),
    skipped_files: z.array(z.string()).optional().describe('Changed files no language server covers, or outside the roots.'),
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
    const changed: { file: string; status: string; from?: string; symbols: number }[] = [];
    const skipped: string[] = [];
    const symbols: z.infer<typeof changedSymbolOutput>[] = [];
    for (const f of await changedFiles(ctx, top, base, args.staged === true)) {
      const path = join(top, f.path);
      const oldPath = join(top, f.oldPath ?? f.path);
      const route = ctx.workspace.registry.forFile(path);
      if (!route || !ctx.workspace.rootList.some((r) => isWithin(r, path))) {
        skipped.push(`${ctx.workspace.display(path)}${f.status === 'deleted' ? ' (deleted)' : ''}`);
        continue;
      }
      const conn = await ctx.workspace.connection(route.server);
      const notReady = await awaitReady(conn, args, ctx);
      if (notReady) return notReady;
      const toLines = (ranges: [number, number][]) => ranges.flatMap(([a, b]) => Array.from({ length: b - a + 1 }, (_, i) => a + i - 1));
      let current: (FileSide & { uri: string }) | undefined;
      if (f.status !== 'deleted') {
        const handle = await ctx.workspace.openDocument(path);
        current = { path, uri: handle.uri, text: handle.doc.text, tree: await trees.of(handle.uri), lines: toLines(f.lines) };
      }
      let before: FileSide | undefined;
      if (f.status !== 'added') {
        const text = await textAtRef(top, base, f.oldPath ?? f.path, ctx.signal);
        before = { path: oldPath, text, tree: await symbolsOfText(conn, route.languageId, oldPath, text, ctx.signal), lines: toLines(f.oldLines) };
      }
      const found = symbolChanges(before, current);
      changed.push({
        file: ctx.workspace.display(path),
        status: f.status,
        ...(f.oldPath ? { from: ctx.workspace.display(oldPath) } : {}),
        symbols: found.changed.length + found.added.length + found.removed.length,
      });
      if (current) {
        const touched = [...found.changed.map((c) => ({ node: c.node, change: c.signature ? ('signature' as const) : ('body' as const) })), ...found.added.map((node) => ({ node, change: 'added' as const }))];
        for (const { node, change } of touched) {
          const { impact, uses } = await impactOf(ctx, conn, trees, current.uri, path, current.text, node, false);
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
      if (before) {
        const mapper = new PositionMapper(ctx.workspace, conn);
        // A renamed file keeps its symbols, but uses that still name them where they were (an
        // import of the old module path) are left behind all the same.
        const moved = f.status === 'renamed' ? before.tree.filter((s) => !found.removed.includes(s) && isExported(oldPath, before.text, s)) : [];
        const gone = [...found.removed.map((node) => ({ node, change: 'removed' as const })), ...moved.map((node) => ({ node, change: 'moved' as const }))];
        for (const { node, change } of gone) {
          const { uses, unexamined } = await removedUses(ctx, conn, mapper, trees, top, node.name, new Set([oldPath, path]));
          // A renamed file's symbol is news only when a use was left behind.
          if (change === 'moved' && uses.length === 0) continue;
          const tests = uses.filter((u) => u.test).length;
          const now = change === 'moved' ? current?.tree.find((s) => s.name === node.name && s.kind === node.kind) : undefined;
          symbols.push({
            name: node.name,
            kind: symbolKindName(node.kind),
            file: ctx.workspace.display(now ? path : oldPath),
            line: (now ?? node).selectionRange.start.line + 1,
            change,
            exported: isExported(oldPath, before.text, node),
            risk: riskOf(uses.length - tests, tests, true),
            test_references: tests,
            non_test_references: uses.length - tests,
            used_in: groupByFile(uses.map((u) => ({ ...u, symbol: node.name, level: 1 }))),
            found_by: 'unresolved_name',
            ...(unexamined > 0 ? { unexamined_occurrences: unexamined } : {}),
          });
        }
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
    const out = [`Changes against ${r.base}: ${(r.changed_files ?? []).map((f) => `${f.file} (${f.status}${f.from ? ` from ${f.from}` : ''})`).join(', ') || 'none'}`];
    if (r.skipped_files) out.push(`skipped: ${r.skipped_files.join(', ')}`);
    out.push(pageHeader(r, 'changed symbol(s)'));
    for (const s of r.symbols ?? []) {
      const how = s.found_by ? ` left behind (names it no longer resolves${s.unexamined_occurrences ? `; ${s.unexamined_occurrences} occurrence(s) not examined` : ''})` : '';
      out.push(`${s.risk.toUpperCase()} ${s.kind} ${s.name} ${s.file}:${s.line} (${s.change}${s.exported ? '' : ', not exported'}): ${s.non_test_references} non-test, ${s.test_references} test use(s)${how}`);
      for (const f of s.used_in) out.push(`  ${fileImpactText(f)}`);
    }
    out.push(`risk: ${r.risk_rule ?? ''}`);
    return out.join('\n');
  },
});
