import type {
  ApplyWorkspaceEditParams,
  ApplyWorkspaceEditResult,
  ConfigurationParams,
  Registration,
  RegistrationParams,
  UnregistrationParams,
  WorkspaceFolder,
} from 'vscode-languageserver-protocol';

/** Reads `a.b.c` out of a settings object; null when absent (as LSP's configuration expects). */
export function settingsSection(settings: Record<string, unknown>, section: string | undefined): unknown {
  if (!section) return settings;
  let node: unknown = settings;
  for (const part of section.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

export function answerConfiguration(settings: Record<string, unknown>, params: ConfigurationParams): unknown[] {
  return params.items.map((item) => settingsSection(settings, item.section));
}

/** Dynamic capability registrations, by id, so that "does the server support X" includes them. */
export class RegistrationTable {
  private readonly byId = new Map<string, Registration>();

  register(params: RegistrationParams): void {
    for (const r of params.registrations) this.byId.set(r.id, r);
  }

  unregister(params: UnregistrationParams): void {
    // The protocol spells it "unregisterations".
    for (const r of params.unregisterations) this.byId.delete(r.id);
  }

  has(method: string): boolean {
    for (const r of this.byId.values()) if (r.method === method) return true;
    return false;
  }

  all(): Registration[] {
    return [...this.byId.values()];
  }
}

export type ApplyEditHandler = (params: ApplyWorkspaceEditParams) => Promise<ApplyWorkspaceEditResult>;

/** Until a write path exists for server-initiated edits, refuse them with a reason rather than drop them. */
export const refuseApplyEdit: ApplyEditHandler = () =>
  Promise.resolve({ applied: false, failureReason: 'agent-lsp applies server edits only through its write tools.' });

export function toWorkspaceFolders(paths: readonly string[], toUri: (p: string) => string): WorkspaceFolder[] {
  return paths.map((p) => ({ uri: toUri(p), name: p.split('/').filter(Boolean).pop() ?? p }));
}
