/**
 * The values (enums, request and notification types, namespaces) that agent-lsp takes from
 * vscode-languageserver-protocol, imported in this one place. The package is CommonJS: in the
 * bundle every module importing it got its own copy of its namespace, ~300 getters (46 KiB of heap),
 * 19 copies in every front and broker. Types are still imported from the package directly.
 */
export {
  CodeActionKind,
  DiagnosticTag,
  DocumentHighlightKind,
  FileChangeType,
  InlayHintKind,
  MarkupKind,
  NotificationType,
  NotificationType0,
  Range,
  RequestType,
  RequestType0,
  SemanticTokenModifiers,
  SemanticTokenTypes,
  SymbolKind,
  TextDocumentContentChangeEvent,
  TextDocumentIdentifier,
  TextDocumentItem,
  VersionedTextDocumentIdentifier,
} from 'vscode-languageserver-protocol';
