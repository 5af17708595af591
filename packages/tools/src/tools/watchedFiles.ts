import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { FileEvent } from 'vscode-languageserver-protocol';
import { pathToUri, FileChangeType, UserError, uriToPath } from '@agent-lsp/protocol';
import { resolveWritablePath } from '@agent-lsp/session';
import { readyOutput } from '../catalog/schemas.js';
import { defineTool, STATEFUL } from '../catalog/toolDefinition.js';

const CHANGE_TYPES = ['created', 'changed', 'deleted'] as const;
type ChangeType = (typeof CHANGE_TYPES)[number];
const LSP_TYPE: Record<ChangeType, FileChangeType> = {
  created: FileChangeType.Created,
  changed: FileChangeType.Changed,
  deleted: FileChangeType.Deleted,
};

export const didChangeWatchedFiles = defineTool({
  name: 'did_change_watched_files',
  title: 'Report changed files',
  description: 'Tells the servers of files changed outside agent-lsp; watchers do too, use it when you know what changed.',
  group: 'workspace',
  input: () => ({
    changes: z
      .array(
        z.object({
          file_path: z.string().optional().describe('The file (or uri).'),
          uri: z.string().optional().describe('A file:// URI instead of file_path (the original agent-lsp\'s form).'),
          type: z.union([z.enum(CHANGE_TYPES), z.literal(1), z.literal(2), z.literal(3)]).describe('created | changed | deleted, or LSP\'s FileChangeType 1 | 2 | 3.'),
        }),
      )
      .min(1)
      .max(1000)
      .describe('What changed on disk.'),
  }),
  output: () => ({
    ...readyOutput,
    files: z.array(z.object({ file: z.string(), type: z.enum(CHANGE_TYPES) })).optional().describe('As reported (a missing file as deleted).'),
    servers: z.number().optional().describe('Language servers told.'),
  }),
  annotations: STATEFUL,
  async handler(args, ctx) {
    const changes = args.changes.map((c, i) => ({ file: changedFile(c, i), type: typeof c.type === 'number' ? CHANGE_TYPES[c.type - 1]! : c.type }));
    await ctx.workspace.ensureRoots(changes[0]?.file);
    // Every path is checked before anything is told: one outside the roots refuses the call.
    const resolved = changes.map((c) => {
      const path = resolveWritablePath(c.file, ctx.workspace.rootList);
      // The disk has the last word: a file that is gone is reported deleted whatever the caller said.
      const type: ChangeType = !existsSync(path) ? 'deleted' : c.type === 'deleted' ? 'changed' : c.type;
      return { path, type };
    });
    const paths = [...new Set(resolved.map((r) => r.path))];
    await ctx.workspace.syncFromDisk(paths, { force: true });
    const events: FileEvent[] = resolved.map((r) => ({ uri: pathToUri(r.path), type: LSP_TYPE[r.type] }));
    ctx.workspace.announceDiskChanges(events);
    // Speculative baselines of other files may depend on these (an import).
    ctx.ledger.simulations.baselines.bump();
    const servers = (await ctx.workspace.liveConnections()).length;
    return { ready: true, files: resolved.map((r) => ({ file: ctx.workspace.display(r.path), type: r.type })), servers };
  },
  text: (r) => {
    const files = r.files ?? [];
    const list = files.slice(0, 20).map((f) => `${f.file} (${f.type})`).join(', ') + (files.length > 20 ? `, +${files.length - 20} more` : '');
    return `Reported ${files.length} file(s) to ${r.servers ?? 0} language server(s): ${list}. Open copies now read as on disk.`;
  },
});

/** A change's file: its file_path, or the path of its file:// uri. */
function changedFile(change: { file_path?: string | undefined; uri?: string | undefined }, index: number): string {
  if (change.file_path !== undefined) return change.file_path;
  if (change.uri !== undefined) {
    const path = uriToPath(change.uri);
    if (path === undefined) throw new UserError('invalid_argument', `changes[${index}].uri ${change.uri} is not a file:// URI; give file_path instead.`);
    return path;
  }
  throw new UserError('invalid_argument', `changes[${index}] names no file: give file_path (or uri).`);
}
