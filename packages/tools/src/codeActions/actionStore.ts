import type { CodeAction, Command } from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { currentHash, type AgentLedger } from '@agent-lsp/session';

/** Action ids kept per front: enough for a few suggest_fixes calls, bounded for a long session. */
export const ACTION_IDS_KEPT = 256;

/** A code action as suggest_fixes offered it, with what it was computed on. */
export interface StoredAction {
  id: string;
  conn: LspConnection;
  /** Real path of the file the action was asked for. */
  path: string;
  action: CodeAction | Command;
  /** Content hash of every file the action was computed on (its own file, the files its edit touches). */
  hashes: Map<string, string | null>;
}

/**
 * This front's action ids. An id names the server's action on the texts it was computed on: once
 * one of those files changes, the id is refused as stale rather than applied to other text.
 */
export class ActionStore {
  private readonly actions = new Map<string, StoredAction>();
  private next = 1;

  add(entry: Omit<StoredAction, 'id'>): StoredAction {
    const stored = { ...entry, id: `fx${this.next++}` };
    this.actions.set(stored.id, stored);
    while (this.actions.size > ACTION_IDS_KEPT) {
      const oldest = this.actions.keys().next().value;
      if (oldest === undefined) break;
      this.actions.delete(oldest);
    }
    return stored;
  }

  /** Remembers the hash of a file the action's edit touches (seen when the edit was first resolved). */
  noteFile(stored: StoredAction, path: string, hash: string | null): void {
    if (!stored.hashes.has(path)) stored.hashes.set(path, hash);
  }

  /** The stored action, refused when unknown, when its server is gone, or when a file it was computed on changed. */
  take(id: string, label: (path: string) => string): StoredAction {
    const stored = this.actions.get(id);
    if (!stored) {
      throw new UserError(
        'invalid_argument',
        `Unknown action_id ${id}: ids come from suggest_fixes in this agent-lsp process, which keeps the last ${ACTION_IDS_KEPT}. Call suggest_fixes again and use an id it returns. Nothing was written.`,
      );
    }
    if (!stored.conn.isAlive) {
      this.actions.delete(id);
      throw new UserError('conflict', `action_id ${id} is stale: ${stored.conn.server.displayName} restarted since suggest_fixes offered it. Call suggest_fixes again. Nothing was written.`);
    }
    const changed = [...stored.hashes].filter(([path, hash]) => currentHash(path) !== hash).map(([path]) => label(path));
    if (changed.length > 0) {
      this.actions.delete(id);
      throw new UserError(
        'conflict',
        `action_id ${id} is stale: ${changed.join(', ')} changed since suggest_fixes offered it, so its edit may no longer fit. Call suggest_fixes again for the current text. Nothing was written.`,
      );
    }
    return stored;
  }
}

const stores = new WeakMap<AgentLedger, ActionStore>();

/** The action store of one front (one ledger per MCP server: two agents never share ids). */
export function actionStoreOf(ledger: AgentLedger): ActionStore {
  let store = stores.get(ledger);
  if (!store) {
    store = new ActionStore();
    stores.set(ledger, store);
  }
  return store;
}
