import { displayPath, uriToPath, UserError } from '@agent-lsp/protocol';
import type { Logger, ServerRegistry } from '@agent-lsp/lsp';
import { resolveDirectory, resolveFilePath } from './pathResolver.js';
import { inferRoot } from './rootInference.js';

/**
 * A workspace's roots and what may be read through it: the primary root (start_lsp, `--root`,
 * the client's roots, or one inferred from a file path), added folders, and the files outside them
 * that a server named in an answer. Paths in and out of tools are resolved and displayed here.
 */
export class WorkspaceRoots {
  private roots: string[] = [];
  /** The root guessed from a file path, while it is still the primary root (answers name it). */
  private inferred: string | undefined;
  /** Files outside the roots that a server named in an answer: readable, never writable. */
  private readonly serverNamed = new Set<string>();

  constructor(initial?: string) {
    if (initial !== undefined) this.roots = [initial];
  }

  get list(): readonly string[] {
    return this.roots;
  }

  get primary(): string | undefined {
    return this.roots[0];
  }

  /** The primary root when it was inferred from a file path rather than given. */
  get inferredRoot(): string | undefined {
    return this.inferred !== undefined && this.inferred === this.roots[0] ? this.inferred : undefined;
  }

  /** Makes `real` (a realpath) the one root; false when it already was. */
  setPrimary(real: string): boolean {
    this.inferred = undefined;
    if (this.roots[0] === real) return false;
    this.roots = [real];
    this.serverNamed.clear();
    return true;
  }

  add(dir: string): string[] {
    const real = resolveDirectory(dir, 'path');
    if (!this.roots.includes(real)) this.roots.push(real);
    return [...this.roots];
  }

  remove(dir: string): string[] {
    const real = resolveDirectory(dir, 'path');
    if (!this.roots.includes(real)) {
      throw new UserError('invalid_argument', `${dir} is not a workspace folder. Current folders: ${this.roots.join(', ') || 'none'}.`);
    }
    if (this.roots.length === 1) {
      throw new UserError('invalid_argument', `${dir} is the only workspace folder; use start_lsp with another root_dir to switch workspaces.`);
    }
    this.roots = this.roots.filter((r) => r !== real);
    return [...this.roots];
  }

  /**
   * Makes sure there is a root: the one already set, else the MCP client's roots, else the
   * project root inferred from an absolute file path (the outermost project, see inferRoot).
   * `howToSet` completes the error when there is none: the calling tool's own way to name a root.
   */
  async ensure(options: { hintPath?: string | undefined; howToSet: string; clientRoots?: (() => Promise<string[]>) | undefined; registry: ServerRegistry; logger: Logger }): Promise<void> {
    if (this.roots.length > 0) return;
    const fromClient = (await options.clientRoots?.().catch(() => [])) ?? [];
    for (const r of fromClient) {
      try {
        const real = resolveDirectory(r);
        if (!this.roots.includes(real)) this.roots.push(real);
      } catch {
        options.logger.warn(`ignoring client root ${r}: not a directory`);
      }
    }
    if (this.roots.length > 0) return;
    const hint = options.hintPath;
    if (hint && hint.startsWith('/')) {
      const abs = resolveFilePath(hint, [], this.serverNamed).path;
      const root = inferRoot(abs, options.registry.forFile(abs)?.server.rootMarkers ?? []);
      options.logger.info(`no workspace given: inferred ${root} from ${abs}`);
      this.roots = [root];
      this.inferred = root;
      return;
    }
    throw new UserError('no_workspace', `No workspace is set. ${options.howToSet}`);
  }

  resolveFile(input: string): string {
    return resolveFilePath(input, this.roots, this.serverNamed).path;
  }

  /** Root-relative for files inside a root, absolute otherwise. */
  display(path: string): string {
    return displayPath(this.roots, path);
  }

  displayUri(uri: string): string {
    const path = uriToPath(uri);
    return path ? this.display(path) : uri;
  }

  /** Lets agents read a file a server pointed at (a definition in typeshed or node_modules). */
  allowServerNamed(uri: string): void {
    const path = uriToPath(uri);
    if (path) this.serverNamed.add(path);
  }
}
