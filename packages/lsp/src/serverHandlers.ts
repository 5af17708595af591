import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import type {
  ApplyWorkspaceEditParams,
  ConfigurationParams,
  LogMessageParams,
  PublishDiagnosticsParams,
  RegistrationParams,
  UnregistrationParams,
  WorkDoneProgressBegin,
  WorkDoneProgressEnd,
  WorkDoneProgressReport,
} from 'vscode-languageserver-protocol';
import { ErrorCodes, pathToUri } from '@agent-lsp/protocol';
import type { Logger } from './logger.js';
import { answerConfiguration, toWorkspaceFolders, type ApplyEditHandler, type RegistrationTable } from './serverRequests.js';

export interface RegistrationChange {
  method: 'client/registerCapability' | 'client/unregisterCapability';
  params: RegistrationParams | UnregistrationParams;
}

type ProgressValue = WorkDoneProgressBegin | WorkDoneProgressReport | WorkDoneProgressEnd;

/** What the connection does with what the server sends it. */
export interface ServerHandlerDeps {
  settings: Record<string, unknown>;
  logger: Logger;
  registrations: RegistrationTable;
  folders(): readonly string[];
  onApplyEdit: ApplyEditHandler;
  registrationChanged(change: RegistrationChange): void;
  diagnosticsRefresh(): void;
  publishDiagnostics(params: PublishDiagnosticsParams): void;
  progress(token: string | number, value: ProgressValue): void;
  logMessage(params: LogMessageParams): void;
  /** Every notification, after the handling above. */
  notification(event: { method: string; params: unknown }): void;
}

/**
 * Answers the server's requests (configuration from the profile's settings, progress creation,
 * capability (un)registration, workspace folders, applyEdit, the refresh requests) and routes its
 * notifications. Unknown server requests get "method not found" rather than silence.
 */
export function installServerHandlers(rpc: MessageConnection, deps: ServerHandlerDeps): void {
  const { logger } = deps;
  rpc.onRequest('workspace/configuration', (p: ConfigurationParams) => answerConfiguration(deps.settings, p));
  rpc.onRequest('window/workDoneProgress/create', () => null);
  rpc.onRequest('client/registerCapability', (p: RegistrationParams) => {
    deps.registrations.register(p);
    deps.registrationChanged({ method: 'client/registerCapability', params: p });
    return null;
  });
  rpc.onRequest('client/unregisterCapability', (p: UnregistrationParams) => {
    deps.registrations.unregister(p);
    deps.registrationChanged({ method: 'client/unregisterCapability', params: p });
    return null;
  });
  rpc.onRequest('workspace/workspaceFolders', () => toWorkspaceFolders(deps.folders(), pathToUri));
  rpc.onRequest('workspace/applyEdit', (p: ApplyWorkspaceEditParams) => deps.onApplyEdit(p));
  rpc.onRequest('window/showMessageRequest', () => null);
  rpc.onRequest('window/showDocument', () => ({ success: false }));
  // typescript-language-server asks the editor to start renaming a refactoring's new name: an interactive step, done.
  rpc.onRequest('_typescript.rename', () => null);
  rpc.onRequest('workspace/diagnostic/refresh', () => {
    deps.diagnosticsRefresh();
    return null;
  });
  for (const m of ['workspace/semanticTokens/refresh', 'workspace/codeLens/refresh', 'workspace/inlayHint/refresh', 'workspace/inlineValue/refresh', 'workspace/foldingRange/refresh']) {
    rpc.onRequest(m, () => null);
  }
  rpc.onRequest((method) => {
    logger.warn(`server request ${method} is not supported; answered with an error`);
    return new ResponseError(ErrorCodes.MethodNotFound, `agent-lsp does not handle ${method}`);
  });
  const onNotification = <P>(method: string, handler: (params: P) => void) =>
    rpc.onNotification(method, (params: P) => {
      handler(params);
      deps.notification({ method, params });
    });
  onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => deps.publishDiagnostics(p));
  onNotification('$/progress', (p: { token: string | number; value: ProgressValue }) => {
    if (p.value && typeof p.value === 'object' && 'kind' in p.value) deps.progress(p.token, p.value);
  });
  onNotification('window/logMessage', (p: LogMessageParams) => {
    logger.debug(`server log: ${p.message}`);
    deps.logMessage(p);
  });
  onNotification('window/showMessage', (p: LogMessageParams) => logger.info(`server message: ${p.message}`));
  rpc.onNotification((method: string, params: unknown) => deps.notification({ method, params }));
  rpc.onError(([err]) => logger.debug(`rpc error: ${err.message}`));
}
