import { CodeActionKind, DiagnosticTag, MarkupKind, SemanticTokenModifiers, SemanticTokenTypes } from '@agent-lsp/protocol';
import type { SymbolKind, ClientCapabilities } from 'vscode-languageserver-protocol';

const allSymbolKinds = Array.from({ length: 26 }, (_, i) => (i + 1) as SymbolKind);

/**
 * What agent-lsp tells servers it can do. Rich on purpose: servers give fuller answers (markdown
 * hover, code action literals, hierarchical symbols, versioned diagnostics) to clients that say so.
 */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  general: { positionEncodings: ['utf-16'] },
  // rust-analyzer says when its workspace is loaded only to clients that ask (rustAnalyzerReadiness.ts).
  experimental: { serverStatusNotification: true },
  window: { workDoneProgress: true, showMessage: {}, showDocument: { support: false } },
  workspace: {
    applyEdit: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'], failureHandling: 'abort' },
    configuration: true,
    workspaceFolders: true,
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
    symbol: { dynamicRegistration: true, symbolKind: { valueSet: allSymbolKinds } },
    executeCommand: { dynamicRegistration: true },
    diagnostics: { refreshSupport: true },
    semanticTokens: { refreshSupport: false },
    codeLens: { refreshSupport: false },
    inlayHint: { refreshSupport: false },
  },
  textDocument: {
    synchronization: { dynamicRegistration: true, didSave: true, willSave: false, willSaveWaitUntil: false },
    hover: { dynamicRegistration: true, contentFormat: [MarkupKind.Markdown, MarkupKind.PlainText] },
    completion: {
      dynamicRegistration: true,
      completionItem: {
        snippetSupport: false,
        documentationFormat: [MarkupKind.Markdown, MarkupKind.PlainText],
        deprecatedSupport: true,
        labelDetailsSupport: true,
        resolveSupport: { properties: ['documentation', 'detail'] },
      },
      contextSupport: true,
    },
    signatureHelp: {
      dynamicRegistration: true,
      signatureInformation: {
        documentationFormat: [MarkupKind.Markdown, MarkupKind.PlainText],
        parameterInformation: { labelOffsetSupport: true },
        activeParameterSupport: true,
      },
      contextSupport: true,
    },
    definition: { dynamicRegistration: true, linkSupport: true },
    declaration: { dynamicRegistration: true, linkSupport: true },
    typeDefinition: { dynamicRegistration: true, linkSupport: true },
    implementation: { dynamicRegistration: true, linkSupport: true },
    references: { dynamicRegistration: true },
    documentHighlight: { dynamicRegistration: true },
    documentSymbol: {
      dynamicRegistration: true,
      hierarchicalDocumentSymbolSupport: true,
      symbolKind: { valueSet: allSymbolKinds },
      labelSupport: true,
    },
    codeAction: {
      dynamicRegistration: true,
      isPreferredSupport: true,
      disabledSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ['edit'] },
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            CodeActionKind.Empty,
            CodeActionKind.QuickFix,
            CodeActionKind.Refactor,
            CodeActionKind.RefactorExtract,
            CodeActionKind.RefactorInline,
            CodeActionKind.RefactorRewrite,
            CodeActionKind.Source,
            CodeActionKind.SourceOrganizeImports,
            CodeActionKind.SourceFixAll,
          ],
        },
      },
    },
    formatting: { dynamicRegistration: true },
    rangeFormatting: { dynamicRegistration: true },
    rename: { dynamicRegistration: true, prepareSupport: true },
    publishDiagnostics: {
      relatedInformation: true,
      versionSupport: true,
      tagSupport: { valueSet: [DiagnosticTag.Unnecessary, DiagnosticTag.Deprecated] },
      codeDescriptionSupport: true,
      dataSupport: true,
    },
    diagnostic: { dynamicRegistration: true, relatedDocumentSupport: false },
    callHierarchy: { dynamicRegistration: true },
    typeHierarchy: { dynamicRegistration: true },
    foldingRange: { dynamicRegistration: true },
    selectionRange: { dynamicRegistration: true },
    semanticTokens: {
      dynamicRegistration: true,
      // The standard names: some servers (gopls) send only the types a client declares.
      requests: { full: true, range: true },
      tokenTypes: Object.values(SemanticTokenTypes),
      tokenModifiers: Object.values(SemanticTokenModifiers),
      formats: ['relative'],
    },
    inlayHint: { dynamicRegistration: true },
  },
};
