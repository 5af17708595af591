import { z } from 'zod';
import { splitLines } from '@agent-lsp/protocol';
import { readyOutput } from '../catalog/schemas.js';
import { defineTool, STATEFUL } from '../catalog/toolDefinition.js';

export const openDocument = defineTool({
  name: 'open_document',
  title: 'Open document',
  description: 'Opens a file in its server. Queries open their files themselves; this warms up.',
  group: 'workspace',
  input: () => ({
    file_path: z.string(),
    language_id: z.string().optional().describe('Default: from the extension.'),
  }),
  output: () => ({ ...readyOutput, file: z.string().optional(), language_id: z.string().optional(), version: z.number().optional(), lines: z.number().optional() }),
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
  description: 'Closes a file in its server.',
  group: 'workspace',
  input: () => ({ file_path: z.string() }),
  output: () => ({ ...readyOutput, file: z.string().optional(), closed: z.boolean().optional() }),
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
