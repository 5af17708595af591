/**
 * Reads of one document whose answer comes from that document's own syntax tree (and the files it
 * includes): they may go to the server beside another client's exclusive section when the section
 * changed nothing that tree is built from: only C-family files, whose unit is built from the file
 * and what it includes (lsp's `unitBuiltWithout`). clangd settles a changed source in seconds to
 * minutes, the whole unit rebuilt, and cannot be cut into short steps: without this an editor's
 * hover in another file waited for all of it. Workspace-wide requests (references, definitions
 * across files, completion, symbols) read the server's index, which holds the section's text: they
 * wait for its end as before.
 */
export const BESIDE_LEASE_METHODS: ReadonlySet<string> = new Set([
  'textDocument/hover',
  'textDocument/documentSymbol',
  'textDocument/documentHighlight',
  'textDocument/foldingRange',
  'textDocument/selectionRange',
  'textDocument/semanticTokens/full',
  'textDocument/semanticTokens/full/delta',
  'textDocument/semanticTokens/range',
  'textDocument/inlayHint',
  'textDocument/documentLink',
]);
