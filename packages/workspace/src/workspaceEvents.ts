import type { FileEvent } from 'vscode-languageserver-protocol';
import {
  BrokerFilesChangedNotification,
  BrokerServerStateNotification,
  DisposableStore,
  Emitter,
  type Disposable,
  type ServerHealthState,
} from '@agent-lsp/protocol';
import type { LspConnection, ServerDefinition } from '@agent-lsp/lsp';

/** How this front reaches a server. */
export type ServerMode = 'direct' | 'broker' | 'passive';

/** A server finished indexing: answers are complete from now on. */
export interface ServerReadyEvent {
  server: ServerDefinition;
  mode: ServerMode;
  /** From the connection's start to readiness (a warm broker's server is ready at once). */
  elapsedMs: number;
  pid?: number;
}

/** A server crashed, is being restarted, came back, or is given up (here or in its broker). */
export interface ServerHealthEvent {
  server: ServerDefinition;
  mode: ServerMode;
  state: ServerHealthState;
  pid?: number;
  reason?: string;
}

/**
 * Files changed on disk: by this front's own writes (`self`), by something outside agent-lsp
 * (`outside`: the front's or the broker's watcher), or by another client of the same broker
 * (`peer`: another agent's transaction).
 */
export interface FilesChangedEvent {
  origin: 'self' | 'outside' | 'peer';
  changes: readonly FileEvent[];
  /** The URIs the agent has read (opened through a tool and not closed since). */
  openUris: ReadonlySet<string>;
}

/**
 * A server said something about diagnostics: a push for `uri`, or (without uri) a request to pull
 * everything again. Whether they changed is for the listener to find out.
 */
export interface DiagnosticsHintEvent {
  uri?: string;
}

/**
 * The Workspace's events, for what the agent is told without asking (MCP notifications and
 * resource subscriptions). Owned by the Workspace and disposed with it.
 */
export class WorkspaceEvents implements Disposable {
  private readonly ready = new Emitter<ServerReadyEvent>();
  private readonly health = new Emitter<ServerHealthEvent>();
  private readonly files = new Emitter<FilesChangedEvent>();
  private readonly diagnostics = new Emitter<DiagnosticsHintEvent>();
  private readonly attached = new WeakSet<LspConnection>();
  private readonly store = new DisposableStore();

  readonly onServerReady = this.ready.on.bind(this.ready);
  readonly onServerHealth = this.health.on.bind(this.health);
  readonly onFilesChanged = this.files.on.bind(this.files);
  readonly onDiagnosticsHint = this.diagnostics.on.bind(this.diagnostics);

  constructor(
    /** The URIs the agent has read (opened through a tool and not closed since). */
    private readonly openUris: () => ReadonlySet<string>,
  ) {
    this.store.add(this.ready);
    this.store.add(this.health);
    this.store.add(this.files);
    this.store.add(this.diagnostics);
  }

  fireHealth(event: ServerHealthEvent): void {
    this.health.fire(event);
  }

  fireFilesChanged(origin: FilesChangedEvent['origin'], changes: readonly FileEvent[]): void {
    if (changes.length > 0) this.files.fire({ origin, changes, openUris: this.openUris() });
  }

  /** Listens to a started connection: readiness, pushes, refreshes, and a broker's own news. */
  attach(conn: LspConnection, mode: ServerMode): void {
    if (this.attached.has(conn)) return;
    this.attached.add(conn);
    const server = conn.server;
    let announced = false;
    const announceReady = () => {
      if (announced || !conn.readiness.snapshot().ready) return;
      announced = true;
      const elapsedMs = Math.max(0, (conn.readiness.readyAt ?? Date.now()) - conn.startedAt);
      this.ready.fire({ server, mode, elapsedMs, ...(conn.pid !== undefined ? { pid: conn.pid } : {}) });
    };
    const subs: Disposable[] = [
      conn.readiness.onChange(announceReady),
      conn.diagnostics.onPush((uri) => this.diagnostics.fire({ uri })),
      conn.onDiagnosticsRefresh(() => this.diagnostics.fire({})),
    ];
    if (mode === 'broker') {
      subs.push(conn.onNotification(BrokerServerStateNotification.type, (p) => this.health.fire({ server, mode, state: p.state, ...(p.pid !== undefined ? { pid: p.pid } : {}), ...(p.reason !== undefined ? { reason: p.reason } : {}) })));
      subs.push(conn.onNotification(BrokerFilesChangedNotification.type, (p) => this.fireFilesChanged(p.origin === 'client' ? 'peer' : 'outside', p.changes)));
    }
    for (const s of subs) this.store.add(s);
    announceReady();
  }

  dispose(): void {
    this.store.dispose();
  }
}
