import { TextDocumentSyncKind, type ServerCapabilities } from 'vscode-languageserver-protocol';
import type { RegistrationTable } from './serverRequests.js';

/** The ServerCapabilities field behind each request method tools use. */
const CAPABILITY_OF: Record<string, keyof ServerCapabilities> = {
  'textDocument/definition': 'definitionProvider',
  'textDocument/typeDefinition': 'typeDefinitionProvider',
  'textDocument/implementation': 'implementationProvider',
  'textDocument/declaration': 'declarationProvider',
  'textDocument/references': 'referencesProvider',
  'textDocument/hover': 'hoverProvider',
  'textDocument/documentSymbol': 'documentSymbolProvider',
  'workspace/symbol': 'workspaceSymbolProvider',
  'textDocument/completion': 'completionProvider',
  'textDocument/signatureHelp': 'signatureHelpProvider',
  'textDocument/codeAction': 'codeActionProvider',
  'textDocument/rename': 'renameProvider',
  'textDocument/formatting': 'documentFormattingProvider',
  'textDocument/rangeFormatting': 'documentRangeFormattingProvider',
  'textDocument/documentHighlight': 'documentHighlightProvider',
  'textDocument/inlayHint': 'inlayHintProvider',
  'textDocument/semanticTokens': 'semanticTokensProvider',
  'textDocument/prepareCallHierarchy': 'callHierarchyProvider',
  'textDocument/prepareTypeHierarchy': 'typeHierarchyProvider',
};

/**
 * Whether a server offers a request method, statically (its initialize answer) or by dynamic
 * registration. Methods we do not know the capability of count as offered.
 */
export function offers(capabilities: ServerCapabilities, registrations: RegistrationTable, method: string): boolean {
  const key = CAPABILITY_OF[method];
  if (!key) return true;
  const value = (capabilities as Record<string, unknown>)[key];
  return (value !== undefined && value !== false && value !== null) || registrations.has(method);
}

/** Whether the server takes document changes as ranges (textDocumentSync's change kind, a number or in its options). */
export function syncsIncrementally(capabilities: ServerCapabilities): boolean {
  const sync = capabilities.textDocumentSync;
  const kind = typeof sync === 'number' ? sync : sync?.change;
  return kind === TextDocumentSyncKind.Incremental;
}
