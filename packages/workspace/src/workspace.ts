import type { FileEvent } from 'vscode-languageserver-protocol';
import { pathToUri, uriToPath, UserError, type Disposable } from '@agent-lsp/protocol';
import { connectPassive, RootIdentity, ServerCrashedError, startDirectConnection, untilConfigApplied, type ConnectOptions, type LspConnection, type ServerDefinition } from '@agent-lsp/lsp';
import { askAgainWhileModified } from './askAgain.js';
import { CrashRestarts, restartedInPlace } from './crashRestarts.js';
import { DirectModeWatcher, type WatchState } from './directWatcher.js';
import { openFromDisk, syncBuffers } from './diskDocuments.js';
import { FreshSection } from './freshSection.js';
import { resolveDirectory } from './pathResolver.js';
import { RootedWorkspace } from './rootedWorkspace.js';
import { environmentChange } from './serverEnvironment.js';
import { WorkspaceEvents, type ServerMode } from './workspaceEvents.js';
import { Prefetcher } from './prefetch/prefetcher.js';
import type { CallConcurrency, ConnectionFactory, DocumentHandle, WorkspaceOptions } from './workspaceOptions.js';

export type { CallConcurrency, ConnectionFactory, DocumentHandle, WorkspaceOptions } from './workspaceOptions.js';

/**
 * The front's view of a workspace: its roots, and one lazily started connection per server.
 * Paths in and out of tools go through here, so containment and display are decided once.
 */
export class Workspace extends RootedWorkspace implements Disposable {
  private readonly connections = new Map<string, Promise<LspConnection>>();
  /** Automatic restarts after crashes, per server. */
  private readonly crashes = new CrashRestarts();
  /** The root the front's watcher watches, as it was then (runCall checks it is still that directory). */
  private watchedRoot: RootIdentity | undefined;
  private startingOver: Promise<void> | undefined;
  /** What each connection promise resolved to, so freshness checks never wait for a starting server. */
  private readonly started = new WeakMap<Promise<LspConnection>, LspConnection>();
  /** Watches the primary root for the servers this front runs itself (brokers watch their own). */
  private watcher: DirectModeWatcher | undefined;
  private readonly connect: ConnectionFactory;
  /**
   * Tool calls run in shared sections; a speculative evaluation (LspConnection.runExclusive) takes
   * it exclusively, so nothing of this front reads or resyncs a buffer that holds an overlay.
   * Either kind starts by syncing the open documents with the disk (read-your-writes).
   */
  private readonly section = new FreshSection(() => this.syncFromDisk());
  /** Servers reached over TCP instead of spawned (start_lsp connect), by server id. */
  private readonly passive = new Map<string, string>();
  /** Readiness, health, file changes and diagnostics news of this workspace's servers. */
  readonly events = new WorkspaceEvents(() => this.readUris);
  /** Files the agent has read through a tool (opened, and not closed by it): their outside changes are news to it. */
  private readonly readUris = new Set<string>();
  /** Answers read-only queries from its cache and guesses the next ones (see prefetch/prefetcher.ts). */
  readonly prefetch: Prefetcher;

  constructor(options: WorkspaceOptions) {
    super(options);
    this.connect = options.connect ?? startDirectConnection;
    this.prefetch = new Prefetcher({
      enabled: options.prefetch ?? true,
      logger: options.logger,
      shared: (fn) => this.section.shared(fn),
      directWatching: () => this.watching === 'on',
      ...(options.prefetchStateFile ? { transitionsFile: options.prefetchStateFile } : {}),
    });
  }

  /**
   * A read-only request of a tool call, through the prefetcher: answered from its cache when an
   * identical request was made on the same state of the workspace. Call it after the tool's own
   * resync (openReadyDocument), as a tool sends any request. A server that voids its answer
   * because the project changed meanwhile is asked again (askAgain.ts).
   */
  query<R>(conn: LspConnection, method: string, params: unknown, signal: AbortSignal, timeoutMs?: number): Promise<R> {
    this.prefetch.watch(this.primaryRoot, this.rootList.length);
    return askAgainWhileModified(method, () => this.prefetch.request<R>(conn, method, params, signal, timeoutMs), signal);
  }

  /** start_lsp: makes `dir` the workspace. Servers of a previous, different root are stopped. */
  async setRoot(dir: string): Promise<string> {
    const real = resolveDirectory(dir);
    if (this.roots.primary !== real) {
      await this.stopAll();
      this.passive.clear();
    }
    this.roots.setPrimary(real);
    return real;
  }

  /**
   * start_lsp's scope: the root-relative directories servers index (where they can; see
   * serverScope.ts). Running servers are stopped when it changes, to start again with it.
   */
  async setScope(scope: readonly string[]): Promise<void> {
    if (JSON.stringify(scope) === JSON.stringify(this.scope)) return;
    await this.stopAll();
    this.scope = [...scope];
  }

  async addFolder(dir: string): Promise<string[]> {
    const folders = this.roots.add(dir);
    await this.propagateFolders();
    return folders;
  }

  async removeFolder(dir: string): Promise<string[]> {
    const folders = this.roots.remove(dir);
    await this.propagateFolders();
    return folders;
  }

  private async propagateFolders(): Promise<void> {
    for (const conn of await this.liveConnections()) conn.setWorkspaceFolders(this.roots.list);
  }

  /**
   * Passive mode: from now on this server's connection is the one at `address` (host:port).
   * A crash of an external server is not restarted by us; the next call reconnects.
   */
  async attachPassive(server: ServerDefinition, address: string): Promise<LspConnection> {
    const root = this.primaryRoot;
    if (!root) throw new UserError('no_workspace', 'Call start_lsp with root_dir first.');
    const old = this.connections.get(server.id);
    this.connections.delete(server.id);
    if (old) await (await old.catch(() => undefined))?.shutdown();
    this.passive.set(server.id, address);
    return this.connection(server);
  }

  /** The connection for a server, started on first use and restarted after a crash within budget. */
  async connection(server: ServerDefinition): Promise<LspConnection> {
    const root = this.primaryRoot;
    if (!root) throw new UserError('no_workspace', 'No workspace is set. Call start_lsp with root_dir first.');
    for (let existing = this.connections.get(server.id); existing; existing = this.connections.get(server.id)) {
      const conn = await existing.catch(() => undefined);
      // A live one whose environment changed (a virtualenv created in the root): the new environment's server answers.
      const changed = conn?.isAlive ? environmentChange(conn, root) : undefined;
      if (conn?.isAlive && !changed) return conn;
      // Another caller replaced it while we waited (both saw the same dead one): use theirs, not a second new one.
      if (this.connections.get(server.id) !== existing) continue;
      this.connections.delete(server.id);
      if (changed) this.options.logger.info(`${server.displayName}'s ${changed}: connecting anew`);
      if (conn?.isAlive) await conn.shutdown();
      else if (conn) this.crashes.check(server);
      break;
    }
    const base: ConnectOptions = { server, rootDir: root, workspaceFolders: this.roots.list, logger: this.options.logger, section: this.section };
    if (this.scope.length > 0) base.scope = this.scope;
    if (this.options.onApplyEdit) base.onApplyEdit = this.options.onApplyEdit;
    const address = this.passive.get(server.id);
    const starting = address ? connectPassive({ ...base, address }) : this.connect(base);
    this.connections.set(server.id, starting);
    starting.then(
      (conn) => {
        this.started.set(starting, conn);
        if (!conn.broker && this.connections.get(server.id) === starting) this.watch(root, conn);
        this.observe(starting, conn);
      },
      () => {
        if (this.connections.get(server.id) === starting) this.connections.delete(server.id);
      },
    );
    return starting;
  }

  /** The connection's news reach `events`; a server this front runs itself is restarted when it crashes. */
  private observe(starting: Promise<LspConnection>, conn: LspConnection): void {
    const mode: ServerMode = conn.broker ? 'broker' : this.passive.has(conn.server.id) ? 'passive' : 'direct';
    this.events.attach(conn, mode);
    conn.onCrash((err) => {
      const pid = conn.pid;
      this.events.fireHealth({ server: conn.server, mode, state: 'crashed', ...(pid !== undefined ? { pid } : {}), reason: err.message });
      // A broker restarts its own server (and says so); an external server is not ours to restart.
      if (mode === 'direct' && this.connections.get(conn.server.id) === starting) void this.restartAfterCrash(conn.server);
    });
  }

  /** Direct mode: a crashed server is started again at once (within the crash budget), not at the next call. */
  private async restartAfterCrash(server: ServerDefinition): Promise<void> {
    this.connections.delete(server.id);
    try {
      this.crashes.check(server);
    } catch (err) {
      this.events.fireHealth({ server, mode: 'direct', state: 'gave_up', reason: (err as Error).message });
      return;
    }
    this.events.fireHealth({ server, mode: 'direct', state: 'restarting', reason: 'after a crash' });
    try {
      const conn = await this.connection(server);
      this.events.fireHealth({ server, mode: 'direct', state: 'recovered', ...(conn.pid !== undefined ? { pid: conn.pid } : {}) });
    } catch (err) {
      this.events.fireHealth({ server, mode: 'direct', state: 'gave_up', reason: (err as Error).message });
    }
  }

  /** Stops and starts one server (or all running ones); resets the crash budget. */
  async restart(server?: ServerDefinition): Promise<LspConnection[]> {
    const ids = server ? [server.id] : [...this.connections.keys()];
    const restarted: LspConnection[] = [];
    this.prefetch.clear();
    for (const id of ids) {
      const def = server ?? this.registry.servers.find((s) => s.id === id);
      const old = await this.connections.get(id)?.catch(() => undefined);
      this.crashes.reset(id);
      // A server shared through a broker is restarted there, for every client of it.
      if (old?.isAlive && !environmentChange(old, old.rootDir) && (await restartedInPlace(old, this.options.logger))) {
        restarted.push(old);
        continue;
      }
      this.connections.delete(id);
      await old?.shutdown();
      if (def) restarted.push(await this.connection(def));
    }
    return restarted;
  }

  /**
   * Runs an ordinary tool call: alongside other calls, never inside a speculative evaluation, and
   * after the documents the servers hold for us were brought in step with the disk (read-your-writes).
   */
  shared<T>(fn: () => Promise<T>): Promise<T> {
    return this.section.shared(fn);
  }

  /**
   * Runs one tool call in the section its concurrency asks for. A read-only call cut off because
   * its connection went away where a new one can be made at once (a killed broker: the next
   * connection starts another) is asked again, once.
   */
  async runCall<T>(call: { name: string; concurrency: CallConcurrency; readOnly: boolean }, fn: () => Promise<T>): Promise<T> {
    if (this.watchedRoot?.replaced()) await (this.startingOver ??= this.startOverOnReplacedRoot().finally(() => (this.startingOver = undefined)));
    if (call.concurrency === 'exclusive' || !call.readOnly) this.prefetch.yieldToAgent();
    const once = () => (call.concurrency === 'shared' ? this.section.shared(fn) : fn());
    // After a write, the diagnostics of what it changed are the agent's likely next question.
    const before = call.readOnly || !this.prefetch.enabled ? undefined : Prefetcher.versionsOf(this.startedConnections());
    try {
      const result = await once();
      if (before) this.prefetch.afterWrite(this.startedConnections(), before);
      return result;
    } catch (err) {
      if (!(call.readOnly && err instanceof ServerCrashedError && err.brokerGone)) throw err;
      this.options.logger.warn(`${call.name}: the connection went away (${err.message}); retrying once with a new one`);
      return once();
    }
  }

  /**
   * Opens a file in its server, or brings an open one in step with the disk: the server sees what
   * is on disk now. The file is read once (an open one only when a stat says it changed).
   */
  async openDocument(path: string, languageOverride?: string): Promise<DocumentHandle> {
    const route = languageOverride
      ? { server: this.registry.forLanguage(languageOverride), languageId: languageOverride }
      : this.registry.forFileOrThrow(path);
    const conn = await this.connection(route.server);
    this.readUris.add(pathToUri(path));
    return openFromDisk(conn, path, route.languageId, this.display(path));
  }

  /**
   * Read-your-writes: every document a server holds open for this front whose file changed since
   * it was synced (size + mtime, then content hash) gets the disk's text, or is closed when the
   * file is gone. `paths` narrows it to those files; `force` compares their content even when the
   * stat is unchanged (after our own writes). Servers still starting hold nothing yet and are
   * not waited for.
   */
  async syncFromDisk(paths?: readonly string[], options: { force?: boolean } = {}): Promise<void> {
    // Closed files written just before the query: the front's watcher tells its servers now.
    if (!paths) await this.watcher?.flush();
    // A configuration file among them: what the servers answer next must follow it (configReload.ts).
    await Promise.all(this.startedConnections().map(untilConfigApplied));
    const uris = paths?.map(pathToUri);
    await Promise.all(this.startedConnections().map((conn) => syncBuffers(conn, uris, options.force === true, this.options.logger)));
  }

  /**
   * Files agent-lsp itself changed on disk (the transaction layer): every server hears of them,
   * and the front's watcher does not report them again.
   */
  announceDiskChanges(changes: readonly FileEvent[]): void {
    // Nothing changed: no notification (each one moves the servers' change epochs, making every
    // cached and speculated answer unreachable).
    if (changes.length === 0) return;
    this.events.fireFilesChanged('self', changes);
    for (const c of changes) {
      const path = uriToPath(c.uri);
      if (path) this.watcher?.suppress(path);
    }
    for (const conn of this.startedConnections()) conn.notify('workspace/didChangeWatchedFiles', { changes });
  }

  /** The front's watcher: `off` while only brokers (or nothing) run, `degraded` past the OS's watch limit. */
  get watching(): WatchState | 'off' {
    return this.watcher?.state ?? 'off';
  }

  /**
   * The root was removed and made again under the servers this front runs (a brokers checks its
   * own): their watcher and their view of the tree belong to the old directory, so they stop, and
   * the call that found it starts them again on the new one.
   */
  private async startOverOnReplacedRoot(): Promise<void> {
    this.options.logger.warn(`the workspace root ${this.watchedRoot?.root ?? ''} was removed or replaced on disk; starting its servers again`);
    this.watcher?.dispose();
    this.watcher = undefined;
    this.watchedRoot = undefined;
    this.prefetch.clear();
    const own = [...this.connections].filter(([, p]) => this.started.get(p)?.broker === undefined);
    for (const [id] of own) this.connections.delete(id);
    await Promise.all(own.map(async ([, p]) => (await p.catch(() => undefined))?.shutdown()));
  }

  private watch(root: string, conn: LspConnection): void {
    if (!this.watcher && root === this.primaryRoot) {
      this.watchedRoot = new RootIdentity(root);
      this.watcher = new DirectModeWatcher(root, this.options.logger, this.section, () => this.startedConnections(), (changes) => this.events.fireFilesChanged('outside', changes));
    }
    this.watcher?.followLibraries(conn);
  }

  private startedConnections(): LspConnection[] {
    const out: LspConnection[] = [];
    for (const p of this.connections.values()) {
      const conn = this.started.get(p);
      if (conn?.isAlive) out.push(conn);
    }
    return out;
  }

  async closeDocument(path: string): Promise<boolean> {
    const route = this.registry.forFileOrThrow(path);
    const existing = this.connections.get(route.server.id);
    const conn = existing ? await existing.catch(() => undefined) : undefined;
    this.readUris.delete(pathToUri(path));
    return conn?.documents.close(pathToUri(path)) ?? false;
  }

  async liveConnections(): Promise<LspConnection[]> {
    const all = await Promise.all([...this.connections.values()].map((p) => p.catch(() => undefined)));
    return all.filter((c): c is LspConnection => c !== undefined && c.isAlive);
  }

  async stopAll(): Promise<void> {
    this.prefetch.dispose();
    this.watcher?.dispose();
    this.watcher = undefined;
    this.watchedRoot = undefined;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map(async (p) => (await p.catch(() => undefined))?.shutdown()));
  }

  dispose(): void {
    void this.stopAll();
    this.events.dispose();
  }
}
