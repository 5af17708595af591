import { UserError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';

/**
 * tsserver commands `typescript.tsserverRequest` may pass through: queries that read and answer.
 * Everything else (compileOnSaveEmitFile, saveto, applyCodeActionCommand, configure, open/close…)
 * writes files or changes the shared server's state behind the transaction layer's back.
 */
const READ_ONLY_TSSERVER_COMMANDS = new Set([
  'semanticDiagnosticsSync',
  'syntacticDiagnosticsSync',
  'suggestionDiagnosticsSync',
  'geterr',
  'geterrForProject',
  'projectInfo',
  'quickinfo',
  'definition',
  'definitionAndBoundSpan',
  'typeDefinition',
  'implementation',
  'findSourceDefinition',
  'references',
  'fileReferences',
  'documentHighlights',
  'navtree',
  'navto',
  'getOutliningSpans',
  'signatureHelp',
  'completionInfo',
  'completionEntryDetails',
  'getSupportedCodeFixes',
  'getCodeFixes',
  'getCombinedCodeFix',
  'getApplicableRefactors',
  'getEditsForRefactor',
  'getEditsForFileRename',
  'organizeImports',
  'rename',
  'prepareCallHierarchy',
  'provideCallHierarchyIncomingCalls',
  'provideCallHierarchyOutgoingCalls',
  'provideInlayHints',
  'selectionRange',
  'status',
]);

/**
 * Commands that write files (or run code that may) directly instead of through
 * workspace/applyEdit, which is the only way a server's edit reaches a transaction and a checkpoint.
 */
const DIRECT_WRITERS: ReadonlyMap<string, string> = new Map([
  ['_typescript.applyCodeActionCommand', 'it runs tsserver\'s applyCodeActionCommand, which installs packages outside any transaction'],
  ['_typescript.configurePlugin', 'it reconfigures the plugins of a server other agents may share'],
  ['pyright.createtypestub', 'it writes type stub files straight to disk'],
  ['basedpyright.createtypestub', 'it writes type stub files straight to disk'],
  ['gopls.generate', 'it runs go generate, which runs arbitrary programs that write files'],
  ['gopls.vendor', 'it runs go mod vendor, which writes vendor/ straight to disk'],
  ['gopls.run_tests', 'it runs go test (arbitrary code); use a build/test runner instead'],
  ['gopls.test', 'it runs go test (arbitrary code); use a build/test runner instead'],
  ['gopls.regenerate_cgo', 'it runs the cgo generator, which writes files straight to disk'],
  ['gopls.go_get_package', 'it runs go get, which changes go.mod and the module cache straight on disk'],
  ['gopls.generate_gopls_mod', 'it writes gopls.mod straight to disk'],
  ['gopls.run_go_work_command', 'it runs go work, which writes go.work straight to disk'],
  ['gopls.run_govulncheck', 'it runs govulncheck, which fetches from the network and runs the go tool'],
  ['gopls.start_debugging', 'it opens a debug server'],
  ['gopls.start_profile', 'it writes profiles to disk'],
  ['gopls.stop_profile', 'it writes profiles to disk'],
]);

/**
 * What execute_command passes through: commands that change files only through
 * workspace/applyEdit (so inside the call's transaction) — every command but the known direct
 * writers above — and of `typescript.tsserverRequest` only read-only tsserver queries. Whether a
 * server advertises a command is no test: pyright runs commands it does not list.
 */
export function checkCommandAllowed(conn: LspConnection, command: string, args: readonly unknown[]): void {
  const refuse = (why: string): never => {
    throw new UserError('not_supported', `agent-lsp does not run ${command} on ${conn.server.displayName}: ${why}. Nothing was run.`);
  };
  const lacking = conn.server.lacks?.['workspace/executeCommand'];
  if (lacking) refuse(lacking);
  const denied = DIRECT_WRITERS.get(command);
  if (denied) refuse(denied);
  if (command === 'typescript.tsserverRequest') {
    const tsCommand = args[0];
    if (typeof tsCommand !== 'string' || !READ_ONLY_TSSERVER_COMMANDS.has(tsCommand)) {
      const named = typeof tsCommand === 'string' ? `tsserver command ${tsCommand}` : 'a tsserver request without a command name as its first argument';
      refuse(`${named} is not one of the read-only queries it passes through (${[...READ_ONLY_TSSERVER_COMMANDS].join(', ')}); emitting, saving and reconfiguring would write outside any transaction`);
    }
  }
}
