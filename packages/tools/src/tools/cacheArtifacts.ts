import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { inNotIndexedDir, writeFileAtomic } from '@agent-lsp/lsp';
import { UserError } from '@agent-lsp/protocol';
import { AnswerStore } from '../answerCache/answerStore.js';
import { artifactBytes, readArtifact } from '../answerCache/cacheArtifact.js';
import { answerCacheEnabled } from '../answerCache/cachedAnswers.js';
import { workspaceState } from '../answerCache/workspaceState.js';
import { defineTool, type ToolContext } from '../catalog/toolDefinition.js';

/** The workspace's one root: the cache is keyed on one root's files. */
async function cacheRoot(ctx: ToolContext): Promise<string> {
  await ctx.workspace.ensureRoots(undefined, 'Call start_lsp with root_dir (the project directory) first.');
  const root = ctx.workspace.primaryRoot;
  if (root === undefined) throw new UserError('invalid_argument', 'No workspace root: call start_lsp with root_dir first.');
  if (ctx.workspace.rootList.length > 1) throw new UserError('invalid_argument', `The answer cache is kept for a workspace of one root; this one has ${ctx.workspace.rootList.length} (${ctx.workspace.rootList.join(', ')}). Nothing was done.`);
  return root;
}

export const exportCache = defineTool({
  name: 'export_cache',
  title: 'Export the answer cache',
  description: 'Writes this workspace\'s answer cache to a file to share, e.g. .agent-lsp/cache.json.gz.',
  group: 'workspace',
  input: () => ({ dest_path: z.string().min(1).describe('Where to write it.') }),
  output: () => ({
    path: z.string(),
    entries: z.number().describe('Answers written.'),
    current: z.number().describe('Of them, answers computed on the files the workspace has now.'),
    note: z.string().optional(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const root = await cacheRoot(ctx);
    const dest = resolve(root, args.dest_path);
    const store = AnswerStore.forRoot(root);
    const wasOn = answerCacheEnabled(store);
    if (!store.enabled) await store.enable();
    const entries = store.all();
    const state = await workspaceState(root, ctx.signal);
    mkdirSync(dirname(dest), { recursive: true });
    await writeFileAtomic(dest, artifactBytes(root, entries), { mode: 0o644 });
    // A file written where the walk looks is part of the workspace's state: writing it changes the state every answer is keyed on.
    const inState = dest.startsWith(`${root}/`) && !inNotIndexedDir(root, dest);
    const off = wasOn ? '' : 'The answer cache was not on in this workspace; it is now (for every front of this home): answers are kept from now on, so export again after using it. ';
    const inStateNote = inState ? `${ctx.workspace.display(dest)} lies where the workspace's files are hashed, so writing it changed the workspace's state: no answer kept so far matches it any more. Export into a dot-directory (.agent-lsp/) or outside the workspace.` : '';
    const note = `${off}${inStateNote}`.trim();
    return { path: ctx.workspace.display(dest), entries: entries.length, current: entries.filter((e) => e.state === state.hash).length, ...(note !== '' ? { note } : {}) };
  },
  text: (r) => `Cache exported to ${r.path} (${r.entries} entries, ${r.current} computed on the workspace's files as they are now).${r.note ? `\n${r.note}` : ''}`,
});

export const importCache = defineTool({
  name: 'import_cache',
  title: 'Import an answer cache',
  description: 'Loads a file export_cache wrote; each answer is served only on the exact files it was computed on.',
  group: 'workspace',
  input: () => ({ src_path: z.string().min(1).describe('A file export_cache wrote.') }),
  output: () => ({
    path: z.string(),
    imported: z.number().describe('Answers taken.'),
    current: z.number().describe('Of them, answers computed on the files the workspace has now (served from now on).'),
    entries: z.number().describe('Answers in the cache after the import.'),
    from_root: z.string().describe('The root it was exported from.'),
    from_machine: z.string(),
    outside_workspace: z.number().describe('Answers naming files outside the exporting workspace (that machine\'s libraries and toolchain): not taken from another machine or root.'),
    malformed: z.number().describe('Entries not of the form export_cache writes: not taken.'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const root = await cacheRoot(ctx);
    const src = resolve(root, args.src_path);
    const read = readArtifact(src, root);
    const store = AnswerStore.forRoot(root);
    if (!store.enabled) await store.enable();
    await store.add(read.entries);
    const state = await workspaceState(root, ctx.signal);
    const { entries: _taken, ...rest } = read;
    return { path: ctx.workspace.display(src), imported: read.entries.length, current: read.entries.filter((e) => e.state === state.hash).length, entries: store.size, ...rest };
  },
  text: (r) =>
    [
      `Cache imported from ${r.path} (exported from ${r.from_root} on ${r.from_machine}): ${r.imported} answers taken, ${r.current} of them computed on the workspace's files as they are now; ${r.entries} in the cache.`,
      r.outside_workspace > 0 ? `${r.outside_workspace} answers name files outside the exporting workspace (that machine's libraries): not taken here.` : '',
      r.malformed > 0 ? `${r.malformed} entries were not of the form export_cache writes: not taken.` : '',
    ]
      .filter((l) => l !== '')
      .join('\n'),
});

export const cacheArtifactTools = [exportCache, importCache];
