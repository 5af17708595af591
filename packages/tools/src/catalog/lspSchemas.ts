import { z } from 'zod';
import { listedByDescription } from './listedByDescription.js';

/**
 * LSP's own shapes, for tools that take or return a WorkspaceEdit as language servers write it:
 * 0-based lines and UTF-16 character offsets (unlike every other position agent-lsp shows).
 */
const lspPosition = z.object({ line: z.number().int().nonnegative(), character: z.number().int().nonnegative() });
export const lspRange = z.object({ start: lspPosition, end: lspPosition });
const textEdit = z.object({ range: lspRange, newText: z.string(), annotationId: z.string().optional() });
const fileOptions = z.object({ overwrite: z.boolean().optional(), ignoreIfExists: z.boolean().optional() }).optional();

const documentChange = z.union([
  z.object({ textDocument: z.object({ uri: z.string(), version: z.number().int().nullable().optional() }), edits: z.array(textEdit) }),
  z.object({ kind: z.literal('create'), uri: z.string(), options: fileOptions, annotationId: z.string().optional() }),
  z.object({ kind: z.literal('rename'), oldUri: z.string(), newUri: z.string(), options: fileOptions, annotationId: z.string().optional() }),
  z.object({
    kind: z.literal('delete'),
    uri: z.string(),
    options: z.object({ recursive: z.boolean().optional(), ignoreIfNotExists: z.boolean().optional() }).optional(),
    annotationId: z.string().optional(),
  }),
]);

export const workspaceEditSchema = listedByDescription(
  z
    .object({
      changes: z.record(z.string(), z.array(textEdit)).optional(),
      documentChanges: z.array(documentChange).optional(),
      changeAnnotations: z.record(z.string(), z.unknown()).optional(),
    })
    .describe('An LSP WorkspaceEdit, as rename_symbol returns it: {changes: {uri: [{range, newText}]}} or documentChanges; 0-based lines, UTF-16 characters.'),
);
