// The ground truth of the field tests: the same language server agent-lsp runs (its command,
// settings and initialization options from BUILTIN_SERVERS), started on the same root and asked
// directly over stdio by a client that shares no code with agent-lsp's own LSP layer. Its answers
// come back in agent-lsp's terms (root-relative files, 1-based lines, columns in characters), so a
// field case compares like with like.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { SemanticTokenModifiers, SemanticTokenTypes } from 'vscode-languageserver-protocol';
import { BUILTIN_SERVERS, findExecutable, KNOWN_SERVERS } from '@agent-lsp/lsp';

export interface FieldLocation {
  file: string;
  line: number;
  column: number;
  end_line: number;
  end_column: number;
}

interface LspPosition {
  line: number;
  character: number;
}
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/** A symbol of the server's hierarchical textDocument/documentSymbol answer. */
export interface RawDocumentSymbol {
  name: string;
  range: LspRange;
  selectionRange: LspRange;
  children?: RawDocumentSymbol[];
}

/** A diagnostic as the server published it (passed back unchanged as a code action's context). */
export interface RawDiagnostic {
  range: LspRange;
  message: string;
  severity?: number;
  code?: string | number;
}

export type ServerId = 'pyright' | 'basedpyright' | 'typescript' | 'gopls' | 'clangd' | 'rust-analyzer';

/** LSP's ContentModified and ServerCancelled: the answer is to ask again (RETRIES times at most). */
const CONTENT_MODIFIED = -32801;
const SERVER_CANCELLED = -32802;
const RETRIES = 20;

/** How long the server must have had no work in progress before it counts as idle. */
const QUIET_MS = 1500;

/**
 * The log line a server writes once it knows the workspace's files (pyright reports no progress
 * while it enumerates them, and answers references from the files it has found so far).
 */
const READY_LOG: Partial<Record<ServerId, RegExp>> = { pyright: /Found \d+ source files?/, basedpyright: /Found \d+ source files?/ };

/**
 * Servers whose cross-file answers come from a background index, reported as $/progress once the
 * compile database is read (clangd, after a file's open; on a loaded machine that is seconds
 * after its last message): idle only after such progress has ended at least once.
 */
const READY_AFTER_PROGRESS: ReadonlySet<ServerId> = new Set(['clangd']);

/**
 * Servers that say themselves when nothing is pending (rust-analyzer's experimental/serverStatus,
 * quiescent: its progress ends between loading phases): idle only while their last status says so.
 */
const READY_BY_STATUS: ReadonlySet<ServerId> = new Set(['rust-analyzer']);

/** A known (not bundled) server's command on PATH, as agent-lsp starts it: basedpyright. */
function knownServer(id: ServerId): { command: string[]; settings?: Readonly<Record<string, unknown>>; initializationOptions?: Readonly<Record<string, unknown>> } | undefined {
  const known = KNOWN_SERVERS.find((s) => s.id === id);
  const command = known && findExecutable(known.command);
  return command ? { command: [command, ...known.args], settings: known.settings, initializationOptions: known.initializationOptions } : undefined;
}

export class RawServer {
  private readonly inProgress = new Set<string | number>();
  private lastActivity = Date.now();
  private readonly texts = new Map<string, string[]>();
  private readonly versions = new Map<string, number>();
  private readonly logs: string[] = [];
  /** The diagnostics the server last published per URI (code actions are asked with them). */
  private readonly published = new Map<string, { version?: number; diagnostics: RawDiagnostic[] }>();
  private readyLog: RegExp | undefined;
  private needsProgress = false;
  private progressEnded = 0;
  /** Whether the server's last status said nothing is pending (undefined: it has sent none, or is not asked). */
  private quiescent: boolean | undefined;
  /** What the server answered to initialize: its capabilities (semantic tokens' legend, range formatting). */
  capabilities: Readonly<Record<string, unknown>> = {};

  private constructor(
    readonly root: string,
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
  ) {}

  /** Starts the server agent-lsp would start for `root`, initialized on it. */
  static async start(id: ServerId, root: string): Promise<RawServer> {
    const resolved = BUILTIN_SERVERS.find((s) => s.id === id)?.resolve(root) ?? knownServer(id);
    if (!resolved) throw new Error(`${id} cannot be resolved on this machine`);
    const [command, ...args] = resolved.command;
    const child = spawn(command!, args, { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    const server = new RawServer(root, child, connection);
    server.readyLog = READY_LOG[id];
    server.needsProgress = READY_AFTER_PROGRESS.has(id);
    if (READY_BY_STATUS.has(id)) server.quiescent = false;
    const settings = resolved.settings;
    connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
      params.items.map((item) => (item.section ? item.section.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], settings) ?? null : settings)),
    );
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: pathToFileURL(root).href, name: 'root' }]);
    connection.onNotification('$/progress', (params: { token: string | number; value: { kind: string } }) => {
      server.lastActivity = Date.now();
      if (params.value.kind === 'begin') server.inProgress.add(params.token);
      if (params.value.kind === 'end') {
        server.inProgress.delete(params.token);
        server.progressEnded++;
      }
    });
    connection.onNotification('textDocument/publishDiagnostics', (params: { uri: string; version?: number; diagnostics: RawDiagnostic[] }) => {
      server.lastActivity = Date.now();
      server.published.set(params.uri, { ...(params.version !== undefined ? { version: params.version } : {}), diagnostics: params.diagnostics });
    });
    connection.onNotification('experimental/serverStatus', (params: { quiescent: boolean }) => {
      server.lastActivity = Date.now();
      if (server.quiescent !== undefined) server.quiescent = params.quiescent;
    });
    connection.onNotification('window/logMessage', (params: { message: string }) => {
      server.lastActivity = Date.now();
      server.logs.push(params.message);
    });
    connection.onNotification(() => {
      server.lastActivity = Date.now();
    });
    connection.listen();
    const rootUri = pathToFileURL(root).href;
    const initialized = await connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'root' }],
      initializationOptions: resolved.initializationOptions ?? {},
      capabilities: {
        experimental: { serverStatusNotification: true },
        window: { workDoneProgress: true },
        workspace: { configuration: true, workspaceFolders: true, symbol: {} },
        textDocument: {
          publishDiagnostics: { versionSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          // As an editor (and agent-lsp) declares them: pyright's definitions prefer sources to
          // stubs when the client can also ask for declarations.
          definition: { linkSupport: false },
          declaration: { linkSupport: false },
          // The standard names, as agent-lsp declares them: gopls sends only the types a client names.
          semanticTokens: { requests: { full: true, range: true }, tokenTypes: Object.values(SemanticTokenTypes), tokenModifiers: Object.values(SemanticTokenModifiers), formats: ['relative'] },
          // Code actions as literals with their kinds, preferred flags and lazily resolved edits, as
          // an editor (and agent-lsp) asks for them: servers offer their quick fixes only so.
          codeAction: {
            isPreferredSupport: true,
            disabledSupport: true,
            dataSupport: true,
            resolveSupport: { properties: ['edit'] },
            codeActionLiteralSupport: { codeActionKind: { valueSet: ['', 'quickfix', 'refactor', 'refactor.extract', 'refactor.inline', 'refactor.rewrite', 'source', 'source.organizeImports', 'source.fixAll'] } },
          },
        },
      },
    });
    server.capabilities = initialized.capabilities;
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('workspace/didChangeConfiguration', { settings });
    return server;
  }

  /** Waits until the server has had no work in progress for a while (indexing done). */
  async idle(timeoutMs = 240_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const logged = this.readyLog === undefined || this.logs.some((l) => this.readyLog!.test(l));
      const indexed = !this.needsProgress || this.progressEnded > 0;
      if (logged && indexed && this.quiescent !== false && this.inProgress.size === 0 && Date.now() - this.lastActivity > QUIET_MS) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`the server was still busy after ${timeoutMs} ms`);
  }

  uri(rel: string): string {
    return pathToFileURL(`${this.root}/${rel}`).href;
  }

  /** Opens the file (or sends its disk text again, as a new version, when it changed since). */
  async open(rel: string, languageId: string): Promise<void> {
    const text = readFileSync(`${this.root}/${rel}`, 'utf8');
    const uri = this.uri(rel);
    if (this.texts.get(uri)?.join('\n') === text.split(/\r\n|\r|\n/).join('\n')) return;
    const version = (this.versions.get(uri) ?? 0) + 1;
    // What was published for the previous text no longer describes the file.
    this.published.delete(uri);
    this.texts.set(uri, text.split(/\r\n|\r|\n/));
    if (version === 1) await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version, text } });
    else await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
    this.versions.set(uri, version);
  }

  /**
   * The diagnostics the server last published for a file, once it has published for the text
   * open() last sent (when it says which version it published for) and then gone quiet.
   */
  async diagnostics(rel: string, timeoutMs = 120_000): Promise<RawDiagnostic[]> {
    const uri = this.uri(rel);
    const until = Date.now() + timeoutMs;
    const current = (): boolean => {
      const p = this.published.get(uri);
      return p !== undefined && (p.version === undefined || p.version === this.versions.get(uri));
    };
    while (!current() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await this.idle(Math.max(1000, until - Date.now()));
    if (!current()) throw new Error(`the server published no diagnostics for ${rel} within ${timeoutMs} ms`);
    return this.published.get(uri)!.diagnostics;
  }

  /** Tells the server files changed on disk (1 created, 2 changed, 3 deleted). */
  async changed(changes: { rel: string; type: 1 | 2 | 3 }[]): Promise<void> {
    await this.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: changes.map((c) => ({ uri: this.uri(c.rel), type: c.type })) });
  }

  /**
   * A request, asked again (as editors do) while the server answers that the content was
   * modified or that it cancelled it: rust-analyzer does so while it takes in files changed on
   * disk, which it watches itself here.
   */
  async request<T>(method: string, params: object): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.connection.sendRequest<T>(method, params);
      } catch (err) {
        const code = (err as { code?: number }).code;
        if (attempt >= RETRIES || (code !== CONTENT_MODIFIED && code !== SERVER_CANCELLED)) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  /** The server's locations for a position request, in agent-lsp's terms. */
  async locations(method: string, rel: string, at: { line: number; column: number }, extra: object = {}): Promise<FieldLocation[]> {
    const answer = await this.request<unknown>(method, { textDocument: { uri: this.uri(rel) }, position: this.lspPosition(rel, at), ...extra });
    const list = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
    return list.map((l: { uri?: string; targetUri?: string; range?: LspRange; targetSelectionRange?: LspRange }) =>
      this.location(l.uri ?? l.targetUri!, l.range ?? l.targetSelectionRange!),
    );
  }

  /** A range of a file, converted from UTF-16 code units to 1-based lines and character columns. */
  location(uri: string, range: LspRange): FieldLocation {
    const file = fileURLToPath(uri);
    const lines = this.linesOf(uri);
    const column = (p: LspPosition): number => [...(lines[p.line] ?? '').slice(0, p.character)].length + 1;
    return { file: relative(this.root, file), line: range.start.line + 1, column: column(range.start), end_line: range.end.line + 1, end_column: column(range.end) };
  }

  /** A 1-based line and character column of a file as an LSP position (UTF-16). */
  lspPosition(rel: string, at: { line: number; column: number }): LspPosition {
    const line = this.linesOf(this.uri(rel))[at.line - 1] ?? '';
    return { line: at.line - 1, character: [...line].slice(0, at.column - 1).join('').length };
  }

  private linesOf(uri: string): string[] {
    const open = this.texts.get(uri);
    if (open) return open;
    return readFileSync(fileURLToPath(uri), 'utf8').split(/\r\n|\r|\n/);
  }

  /** Shuts the server down and ends its process (by pid). */
  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 3000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // it may be gone already
    }
    this.connection.dispose();
    if (this.child.exitCode === null && this.child.pid !== undefined) {
      await new Promise((r) => setTimeout(r, 500));
      if (this.child.exitCode === null) this.child.kill('SIGKILL');
    }
  }
}
