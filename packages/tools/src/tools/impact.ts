import { existsSync } from 'node:fs';
import { z } from 'zod';
import { UserError } from '@agent-lsp/protocol';
import { fileImpactOutput, fileImpactText, groupByFile, impactOf, isExported, symbolImpactOutput, type SymbolImpact } from '../analysis/blastRadius.js';
import { syncGuarded, syncGuardedTypes } from '../analysis/syncGuarded.js';
import { page, pageFields, pageHeader } from '../output/paging.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { pagingInput, pagingOutput, readinessInput, readyOutput } from '../catalog/schemas.js';
import { SymbolTrees } from '../symbols/symbolTree.js';
import { TEST_FILE_RULE } from '../analysis/testFiles.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

const DEFAULT_FILE_LIMIT = 100;

export const blastRadius = defineTool({
  name: 'blast_radius',
  // The name the original agent-lsp's lsp-concurrency-audit skill calls it by.
  aliases: ['get_change_impact'],
  title: 'Blast radius of files',
  description: 'Every use of the top-level symbols of files from other files, test vs non-test, by file.',
  group: 'analysis',
  input: () => ({
    changed_files: z.array(z.string()).min(1),
    include_transitive: z.boolean().optional().describe('Also uses of the users.'),
    filter: z.string().optional().describe('Only symbols whose name contains this.'),
    scope: z.enum(['all', 'exported']).optional().describe('exported: only what other packages can use.').meta({ default: 'all' }),
    ...readinessInput,
    ...pagingInput,
  }),
  output: () => ({
    ...readyOutput,
    ...pagingOutput,
    test_rule: z.string().optional(),
    references: z.number().optional(),
    test_references: z.number().optional(),
    non_test_references: z.number().optional(),
    symbols: z.array(symbolImpactOutput).optional(),
    files: z.array(fileImpactOutput).optional().describe('Files using them (paged; non-test first).'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    await ctx.workspace.ensureRoots(args.changed_files[0]);
    const paths = args.changed_files.map((f) => ctx.workspace.resolveFile(f));
    const missing = paths.filter((p) => !existsSync(p));
    if (missing.length > 0) {
      throw new UserError(
        'file_not_found',
        `${missing.map((p) => ctx.workspace.display(p)).join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist. Pass existing files (root-relative or absolute); for changes that include deleted files use detect_changes.`,
      );
    }
    const trees = new SymbolTrees(ctx);
    const symbols: SymbolImpact[] = [];
    const uses: Parameters<typeof groupByFile>[0][number][] = [];
    const opened = [];
    for (const path of paths) {
      const handle = await ctx.workspace.openDocument(path);
      const notReady = await awaitReady(handle.conn, args, ctx);
      if (notReady) return notReady;
      opened.push({ path, handle, text: handle.doc.text, nodes: await trees.of(handle.uri) });
    }
    // A method's receiver type may be declared in another of the files.
    const guarded = new Set(opened.flatMap((f) => [...syncGuardedTypes(f.path, f.text, f.nodes)]));
    for (const { path, handle, text, nodes } of opened) {
      for (const node of nodes) {
        if (args.filter !== undefined && !node.name.includes(args.filter)) continue;
        if (args.scope === 'exported' && !isExported(path, text, node)) continue;
        const r = await impactOf(ctx, handle.conn, trees, handle.uri, path, text, node, args.include_transitive === true);
        const sync = syncGuarded(path, node, guarded);
        symbols.push(sync === undefined ? r.impact : { ...r.impact, sync_guarded: sync });
        uses.push(...r.uses);
      }
    }
    const files = groupByFile(uses);
    const p = page(files, args.offset, args.limit, DEFAULT_FILE_LIMIT);
    const tests = uses.filter((u) => u.test).length;
    return {
      ready: true,
      ...pageFields(p),
      test_rule: TEST_FILE_RULE,
      references: uses.length,
      test_references: tests,
      non_test_references: uses.length - tests,
      symbols,
      files: p.items,
    };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const out = [`${r.references ?? 0} use(s) from other files: ${r.non_test_references ?? 0} non-test, ${r.test_references ?? 0} test (${r.test_rule ?? ''})`, 'symbols:'];
    for (const s of r.symbols ?? []) out.push(`  ${s.kind} ${s.name} ${s.file}:${s.line}${s.exported ? '' : ' (not exported)'}${s.sync_guarded ? ' [sync-guarded]' : ''}: ${s.non_test_references} non-test, ${s.test_references} test`);
    out.push(pageHeader(r, 'file(s) using them'), ...(r.files ?? []).map(fileImpactText));
    return out.join('\n');
  },
});
