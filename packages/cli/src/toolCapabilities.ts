/**
 * Which LSP request each tool of ours needs from a server (packages/tools/src/catalog.ts). Tools
 * not listed work with any server: diagnostics (pushed or pulled), the workspace, lifecycle,
 * transaction and simulation tools (they need diagnostics only), and the status tools.
 */
export const TOOL_REQUESTS: Readonly<Record<string, string>> = {
  go_to_definition: 'textDocument/definition',
  go_to_declaration: 'textDocument/declaration',
  go_to_implementation: 'textDocument/implementation',
  go_to_type_definition: 'textDocument/typeDefinition',
  find_references: 'textDocument/references',
  inspect_symbol: 'textDocument/hover',
  list_symbols: 'textDocument/documentSymbol',
  find_symbol: 'workspace/symbol',
  get_completions: 'textDocument/completion',
  get_signature_help: 'textDocument/signatureHelp',
  suggest_fixes: 'textDocument/codeAction',
  format_document: 'textDocument/formatting',
  format_range: 'textDocument/rangeFormatting',
  rename_symbol: 'textDocument/rename',
};

/** The tools a server supports and those it does not, given whether it offers a request. */
export function toolSupport(supports: (method: string) => boolean): { supported: string[]; unsupported: string[] } {
  const supported: string[] = [];
  const unsupported: string[] = [];
  for (const [tool, method] of Object.entries(TOOL_REQUESTS)) (supports(method) ? supported : unsupported).push(tool);
  return { supported, unsupported };
}
