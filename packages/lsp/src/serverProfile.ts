/**
 * How agent-lsp runs and reads one kind of language server. A profile is resolved for a root
 * (the Python interpreter depends on it) into a concrete command and settings.
 */
/** Every readiness strategy, as a server config may name one. */
export const READINESS_STRATEGIES = ['pyright', 'pyrefly', 'perl', 'tsserver', 'tsgo', 'vtsls', 'volar', 'graphql', 'progress', 'rust-analyzer', 'clangd', 'ccls', 'canary'] as const;

export type ReadinessStrategy =
  /** pyright: complete answers once it logs "Found N source files". */
  | 'pyright'
  /** pyrefly: it builds its workspace index in the background after initialize and says it is done only on stderr. */
  | 'pyrefly'
  /** Perl::LanguageServer: it parses the workspace in the background and says it is done only on stderr. */
  | 'perl'
  /** typescript-language-server: per project, "Initializing JS/TS language features" progress ends. */
  | 'tsserver'
  /** typescript-go: a request on an open file answers once its project has loaded; later loads show as "Loading" progress. */
  | 'tsgo'
  /** vtsls: as tsserver, its project loads show as "Initializing '<tsconfig>'" progress. */
  | 'vtsls'
  /** astro-ls, vue-language-server: a seed file's first request creates the TypeScript project. */
  | 'volar'
  /** graphql-lsp: it loads its config and caches when a file is opened, and logs when done. */
  | 'graphql'
  /** gopls, intelephense: the initial $/progress work ends. */
  | 'progress'
  /** rust-analyzer: `experimental/serverStatus` says quiescent and no progress runs (progress alone if it sends no status). */
  | 'rust-analyzer'
  /**
   * clangd: it learns of files only when one is opened (compile_commands.json is read then) and
   * indexes in the background; without a compilation database it knows only opened files.
   */
  | 'clangd'
  /** ccls: it indexes its whole project in the background and says so only when asked ($ccls/info). */
  | 'ccls'
  /**
   * Servers that keep no workspace index and compute each answer on request (jedi-language-server):
   * ready once initialized. A canary would be wrong for them: jedi answers an empty workspace/symbol
   * query by walking every module it can import, which takes minutes.
   */
  | 'initialized'
  /** Anything else: a canary request answers. */
  | 'canary';

export interface ServerDefinition {
  /** Stable id: pyright, typescript, gopls, clangd, rust-analyzer, or a custom server's language id. */
  id: string;
  displayName: string;
  /** Language ids this server answers for, as sent in didOpen. */
  languageIds: readonly string[];
  /** File extension (with dot, lower case) → language id; a key without a dot is a whole file name (`dockerfile`). */
  extensions: Readonly<Record<string, string>>;
  /** Files whose presence marks a project root for this language. */
  rootMarkers: readonly string[];
  /**
   * Workspace-wide queries (find_symbol without a language) ask this server only where one of its
   * root markers is: set for the table's servers, so a stray .yaml or .sh starts nothing.
   */
  projectOnly?: boolean;
  /**
   * The server claims its extensions only for files under a directory holding one of these files,
   * and there ahead of the servers that claim the extension everywhere, when it is installed
   * (ansible-language-server: the .yml files of a project with an ansible.cfg, which Ansible itself
   * reads; elsewhere they stay yaml-language-server's). `file#dependency` names a package.json
   * that depends on a package (Vue: .ts files of a project that depends on vue). An extension no
   * other server claims stays its own everywhere (.vue).
   */
  claimsUnder?: readonly string[];
  readiness: ReadinessStrategy;
  /**
   * Server-specific exact diagnostics query, when pull and versioned push are not available.
   * `tsserver`: tsserver's *DiagnosticsSync commands. `pull`: textDocument/diagnostic, which the
   * server answers although it does not advertise it — Volar's servers (astro-ls, vue) advertise
   * pulls only when no plugin has inter-file dependencies, and otherwise push each version's
   * diagnostics in parts (syntax first, types later), every part stamped with that version.
   */
  exactDiagnostics?: 'tsserver' | 'pull';
  /**
   * What the server must be sent to take in changes it does not pick up by itself (see
   * dependentRefresh.ts): `didSave` (clangd re-reads the headers of its open files, changed on disk
   * or in another open buffer, only when a document is saved; it registers no file watchers),
   * `reloadProjects` (tsserver keeps a file deleted and created again out of its configured
   * project, and every importer unresolved, until its own watcher fires seconds later).
   */
  refreshAfterChange?: 'didSave' | 'reloadProjects';
  /**
   * format_document asks textDocument/rangeFormatting over the whole text instead of
   * textDocument/formatting. vtsls 0.3 answers the latter by asking tsserver to format up to a line
   * one past the end, which tsserver refuses ("Debug Failure. Bad line number") for a file its
   * project had read from disk before the file was opened: any file but the first one opened.
   */
  formatDocumentByRange?: true;
  /**
   * workspace/symbol names each symbol once (clangd: its definition, else one declaration), so a
   * file that only declares it (a header's prototype) is not among its answers: tools that find
   * every declaration of a name also read the files its references are in.
   */
  indexNamesSymbolOnce?: true;
  /**
   * Directories of the server's environment under a root that the workspace watcher skips (a
   * virtualenv's site-packages) but whose changes change its answers: they are watched too
   * (libraryWatchTargets), at their top level.
   */
  environmentDirs?: (rootDir: string) => string[];
  /**
   * What of the machine its answers depend on beyond its command, as it is now for a root (pyright:
   * the Python interpreter it resolves imports against, a virtualenv's once one is created there):
   * ResolvedServer.environment when it was resolved. A connection whose environment is no longer
   * the root's is replaced at the next call (Workspace.connection).
   */
  environmentOf?: (rootDir: string) => string;
  /**
   * LSP methods (or code action kinds: `refactor`) this server does not implement although tools
   * may ask for them, each with the message an agent gets instead (what is missing and what to
   * do): never an opaque server error nor an empty answer that looks complete.
   */
  lacks?: Readonly<Record<string, string>>;
  /**
   * LSP methods whose `$/cancelRequest` this server mishandles: none is ever sent for them. A
   * cancelled or timed-out request still ends at once for its caller; the server's late answer is
   * dropped.
   */
  uncancellable?: readonly string[];
  /**
   * The server analyses a document in the background after it is opened or changed, answers about
   * it empty until then, and says it is done only by publishing the document's diagnostics
   * (vim-language-server): a query on a document first waits for that push.
   */
  analysedWhenPublished?: boolean;
  /**
   * workspace/symbol covers only the directories (modules) in which a file was opened, once the
   * server has indexed them in the background (terraform-ls): a workspace-wide search opens a file
   * of each directory and waits until the server's listing covers every one, else answers not ready.
   */
  indexesOpenedDirectories?: boolean;
  /**
   * The server takes its settings only from a `workspace/didChangeConfiguration` that carries them
   * (Perl::LanguageServer reads the workspace only then), as Neovim and VS Code send after
   * `initialized`: the connection sends the resolved settings once, right after `initialized`.
   * Other servers ask by workspace/configuration and are sent nothing: pyright, gopls, vtsls, tsgo,
   * yaml-language-server, ansible-language-server, prisma and vscode-css-language-server all pull
   * (checked on the real servers); pushed settings made pyright and gopls fetch their configuration
   * again and pyright enumerate its source files again, work a push to every server would add.
   */
  settingsPushedAfterInitialized?: boolean;
  /** How to install it when it is missing. */
  installHint: string;
  /** Arguments that make the executable print its version (default `--version`; gopls: `version`). */
  versionArgs?: readonly string[];
  /** Finds the executable; undefined when it is not installed. */
  resolve(rootDir: string): ResolvedServer | undefined;
}

export interface ResolvedServer {
  command: string[];
  /**
   * Where the executable comes from: bundled (node_modules), installed (`agent-lsp servers
   * install`), PATH, the project (node_modules/.bin, virtualenv), or config.
   */
  source: 'bundled' | 'installed' | 'PATH' | 'project' | 'config';
  /** Answers to workspace/configuration, by section. */
  settings: Record<string, unknown>;
  initializationOptions?: Record<string, unknown>;
  env?: Record<string, string>;
  /** Everything that changes the server's answers, for daemon keys and status. */
  profileFingerprint: string;
  /** ServerDefinition.environmentOf at the time of resolving (part of profileFingerprint). */
  environment?: string;
  /** Version of a bundled server (from its package), when known without running it. */
  version?: string;
  /** Extra facts shown by doctor and status (interpreter, tsserver path). */
  details: Record<string, string>;
  /** A second server run beside `command` as one server (pairedTransport.ts): Vue's hybrid mode. */
  companion?: CompanionServer;
}

/**
 * A server that answers only beside another one, as one profile: the pair is spawned, initialized,
 * restarted and stopped together, and looks like one server to the connection above it
 * (pairedTransport.ts). @vue/language-server 3 serves templates and styles, and asks a tsserver
 * running @vue/typescript-plugin (the main server) everything about scripts.
 */
export interface CompanionServer {
  command: string[];
  /** Language ids of the documents the companion is sent; every document goes to the main server. */
  languageIds: readonly string[];
  /** Methods the companion answers first on its documents (the main server when it has nothing); on the others the main server answers first. */
  answersFirst: readonly string[];
  /**
   * `tsserver`: the companion sends `tsserver/request` notifications `[id, command, args]`, relayed
   * to the main server as `workspace/executeCommand` `typescript.tsserverRequest` and answered with
   * a `tsserver/response` notification `[id, body]`.
   */
  relay: 'tsserver';
}
