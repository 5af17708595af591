import { z } from 'zod';
import { splitLines } from '@agent-lsp/protocol';
import { readyOutput } from '../schemas.js';
import { defineTool, STATEFUL } from '../toolDefinition.js';

export const openDocument = defineTool({
  name: 'open_document',
  title: 'Open document',
  description: 'Opens a file in its language server (starting the server if needed), so that diagnostics and queries cover it. Re-syncs a file that changed on disk. Every query tool opens its file by itself; this is for warming up or for get_diagnostics without file_path.',
  group: 'workspace',
  input: {
    file_path: z.string().describe('Path of the file: relative to the workspace root, or absolute.'),
    language_id: z.string().optional().describe('Override the language picked from the file extension.'),
  },
  output: { ...readyOutput, file: z.string().optional(), language_id: z.string().optional(), version: z.number().optional(), lines: z.number().optional() },
  annotations: STATEFUL,
  async handler(args, ctx) {
    await ctx.workspace.ensureRoots(args.file_path);
    const path = ctx.workspace.resolveFile(args.file_path);
    const handle = await ctx.workspace.openDocument(path, args.language_id);
    const snap = handle.conn.readiness.snapshot();
    return {
      ready: snap.ready,
      ...(snap.progress ? { progress: snap.progress } : {}),
      ...(snap.ready ? {} : { state: snap.state }),
      file: ctx.workspace.display(path),
      language_id: handle.languageId,
      version: handle.doc.version,
      lines: splitLines(handle.doc.text).length,
    };
  },
  text: (r) => `Opened ${r.file} (${r.language_id}, ${r.lines} lines, version ${r.version}).${r.ready ? '' : ' The server is still indexing; queries will wait for it.'}`,
});

export const closeDocument = defineTool({
  name: 'close_document',
  title: 'Close document',
  description: 'Closes a file in its language server (the server then forgets unsaved state and stops reporting on it).',
  group: 'workspace',
  input: { file_path: z.string().describe('Path of the file: relative to the workspace root, or absolute.') },
  output: { ...readyOutput, file: z.string().optional(), closed: z.boolean().optional() },
  annotations: STATEFUL,
  async handler(args, ctx) {
    await ctx.workspace.ensureRoots(args.file_path);
    const path = ctx.workspace.resolveFile(args.file_path);
    const closed = await ctx.workspace.closeDocument(path);
    return { ready: true, file: ctx.workspace.display(path), closed };
  },
  text: (r) => (r.closed ? `Closed ${r.file}.` : `${r.file} was not open.`),
});

export const documentTools = [openDocument, closeDocument];
