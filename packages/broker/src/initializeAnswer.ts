import type { InitializeResult, Registration } from 'vscode-languageserver-protocol';

/** Dynamic registrations that have a static capability field, folded into the capabilities. */
export function withRegistrations(result: InitializeResult, registrations: Registration[]): InitializeResult {
  const capabilities = { ...result.capabilities } as Record<string, unknown>;
  for (const r of registrations) {
    if (r.method === 'textDocument/diagnostic' && capabilities['diagnosticProvider'] === undefined) {
      capabilities['diagnosticProvider'] = r.registerOptions ?? { interFileDependencies: true, workspaceDiagnostics: false };
    }
  }
  return { ...result, capabilities: capabilities as InitializeResult['capabilities'] };
}
