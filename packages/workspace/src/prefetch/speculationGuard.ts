import type { LspConnection } from '@agent-lsp/lsp';

/**
 * The only LSP requests a speculation may ever send: each one reads, none edits, executes,
 * formats or renames. Anything not named here (an unknown method included) is refused, whatever
 * a prediction rule asks for. Code actions are listed only; `codeAction/resolve` and
 * `workspace/executeCommand` are not here.
 */
export const SPECULATABLE_METHODS: ReadonlySet<string> = new Set([
  'textDocument/hover',
  'textDocument/definition',
  'textDocument/typeDefinition',
  'textDocument/implementation',
  'textDocument/declaration',
  'textDocument/references',
  'textDocument/documentSymbol',
  'workspace/symbol',
  'textDocument/diagnostic',
  'textDocument/codeAction',
  'textDocument/signatureHelp',
  'textDocument/prepareRename',
  'textDocument/prepareCallHierarchy',
  'callHierarchy/incomingCalls',
  'callHierarchy/outgoingCalls',
  'textDocument/documentHighlight',
  'textDocument/inlayHint',
  'textDocument/prepareTypeHierarchy',
  'typeHierarchy/supertypes',
  'typeHierarchy/subtypes',
]);

/** Whether a request may be sent speculatively, or served from the prefetch cache. */
export function canSpeculate(method: string): boolean {
  return SPECULATABLE_METHODS.has(method);
}

/**
 * Whether the server has caught up with the workspace, so an answer keyed on the epoch stays true
 * while the epoch does: not while it is not ready, nor while it is ready on a partial index; either
 * catches up with no change the epoch counts (clangd building a changed or given-up file).
 */
export function answersKeepWithEpoch(conn: Pick<LspConnection, 'readiness'>): boolean {
  const readiness = conn.readiness.snapshot();
  return readiness.ready && readiness.partial === undefined;
}
