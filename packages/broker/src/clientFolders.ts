import { resolve } from 'node:path';
import { isWithin, uriToPath } from '@agent-lsp/protocol';
import type { WorkspaceFolder } from 'vscode-languageserver-protocol';

/**
 * Workspace folders are per client. The server is given the broker's root plus the union of the
 * folders clients added (a folder joins when its first client adds it and leaves when its last
 * client removes it or disconnects), and each client's answers leave out files that lie only in
 * folders other clients added. The root is everyone's: a folder inside it changes nothing.
 */
export class ClientFolders {
  /** Folder path → the clients that added it. */
  private readonly owners = new Map<string, Set<number>>();

  constructor(private readonly root: string) {}

  /** A client's didChangeWorkspaceFolders (or the folders of its initialize). True when the union changed. */
  change(client: number, event: { added?: readonly WorkspaceFolder[]; removed?: readonly WorkspaceFolder[] }): boolean {
    let changed = false;
    for (const path of this.paths(event.removed)) {
      const owners = this.owners.get(path);
      if (!owners?.delete(client)) continue;
      if (owners.size === 0) changed = this.owners.delete(path) || changed;
    }
    for (const path of this.paths(event.added)) {
      const owners = this.owners.get(path);
      if (owners) owners.add(client);
      else {
        this.owners.set(path, new Set([client]));
        changed = true;
      }
    }
    return changed;
  }

  /** The client left: the folders only it had leave the union. True when the union changed. */
  dropClient(client: number): boolean {
    let changed = false;
    for (const [path, owners] of this.owners) {
      if (owners.delete(client) && owners.size === 0) {
        this.owners.delete(path);
        changed = true;
      }
    }
    return changed;
  }

  /** What the server is given: the root first, then every folder some client added. */
  union(): string[] {
    return [this.root, ...this.owners.keys()];
  }

  /**
   * A predicate telling whether a file is in `client`'s world, or undefined when every file is
   * (no other client added a folder this one did not): the common case costs nothing.
   */
  visibility(client: number): ((path: string) => boolean) | undefined {
    const foreign: string[] = [];
    const own: string[] = [this.root];
    for (const [path, owners] of this.owners) (owners.has(client) ? own : foreign).push(path);
    if (foreign.length === 0) return undefined;
    return (path) => own.some((f) => isWithin(f, path)) || !foreign.some((f) => isWithin(f, path));
  }

  /** The folders' paths outside the root (a `file:` URI of an absolute path each; others are ignored). */
  private paths(folders: readonly WorkspaceFolder[] | undefined): string[] {
    const out: string[] = [];
    for (const f of folders ?? []) {
      const uri = typeof f === 'object' && f !== null ? (f as { uri?: unknown }).uri : undefined;
      const found = typeof uri === 'string' ? uriToPath(uri) : undefined;
      const path = found !== undefined && found.startsWith('/') ? resolve(found) : undefined;
      if (path !== undefined && !isWithin(this.root, path)) out.push(path);
    }
    return out;
  }
}
