import type { ServerRegistry } from '@agent-lsp/lsp';
import type { WorkspaceOptions } from './workspaceOptions.js';
import { WorkspaceRoots } from './workspaceRoots.js';

/**
 * A workspace's roots as tools see them: the folders, the root inferred from a file, the index
 * scope, and paths resolved against them and displayed root-relative. Workspace (workspace.ts)
 * adds the servers; what changes the roots is there, since it stops or tells the servers.
 */
export abstract class RootedWorkspace {
  protected readonly roots: WorkspaceRoots;
  protected scope: readonly string[] = [];

  constructor(protected readonly options: WorkspaceOptions) {
    this.roots = new WorkspaceRoots(options.root);
  }

  get registry(): ServerRegistry {
    return this.options.registry;
  }

  get rootList(): readonly string[] {
    return this.roots.list;
  }

  get primaryRoot(): string | undefined {
    return this.roots.primary;
  }

  /** The primary root when it was inferred from a file path rather than given; answers name it. */
  get inferredRoot(): string | undefined {
    return this.roots.inferredRoot;
  }

  /** True when the root was inferred from a file path: good enough to read, not to write. */
  get rootInferred(): boolean {
    return this.roots.inferredRoot !== undefined;
  }

  get indexScope(): readonly string[] {
    return this.scope;
  }

  /**
   * Makes sure there is a workspace before a path is resolved (see WorkspaceRoots.ensure);
   * `howToSet` completes the error when there is none: the tool's own way to name a root.
   */
  ensureRoots(hintPath?: string, howToSet = 'Call start_lsp with root_dir (the project directory) first, or pass an absolute file_path.'): Promise<void> {
    return this.roots.ensure({ hintPath, howToSet, clientRoots: this.options.clientRoots, registry: this.registry, logger: this.options.logger });
  }

  resolveFile(input: string): string {
    return this.roots.resolveFile(input);
  }

  /** Root-relative for files inside a root, absolute otherwise. */
  display(path: string): string {
    return this.roots.display(path);
  }

  displayUri(uri: string): string {
    return this.roots.displayUri(uri);
  }

  /** Lets agents read a file a server pointed at (a definition in typeshed or node_modules). */
  allowServerNamed(uri: string): void {
    this.roots.allowServerNamed(uri);
  }
}
