import { basename, dirname, extname, isAbsolute } from 'node:path';
import { UserError } from '@agent-lsp/protocol';
import { BUILTIN_SERVERS } from './builtinServers.js';
import { KNOWN_SERVER_DEFINITIONS } from './knownServerDefinitions.js';
import { ProjectMarkers, type MarkerFiles } from './projectMarkers.js';
import type { ServerDefinition } from './serverProfile.js';
import { DEFAULT_TS_SERVER, TS_SERVER_IDS, TS_SERVERS, type TsServer } from './typescriptServerChoice.js';

/** Language names agents pass as `language_id`, mapped to the language ids servers use. */
const LANGUAGE_ALIASES: Record<string, string> = {
  py: 'python',
  ts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  jsx: 'javascriptreact',
  golang: 'go',
  'c++': 'cpp',
  rs: 'rust',
  bash: 'shellscript',
  sh: 'shellscript',
};

/**
 * The servers agent-lsp knows: custom ones first, so a config can take over an extension; then the
 * built-in profiles; then the table of known servers (knownServers.ts).
 */
export class ServerRegistry {
  /** Every server, the TypeScript profile not chosen included (doctor lists it; a broker finds it by id). */
  readonly servers: readonly ServerDefinition[];
  /** The servers files and language names are routed to: all but the TypeScript profile not chosen. */
  private readonly routed: readonly ServerDefinition[];
  private readonly customCount: number;
  /** Whether a server was found, by id: asked only when several servers claim an extension. */
  private readonly installed = new Map<string, boolean>();
  /** The TypeScript server chosen (`--ts-server`, typescriptServerChoice.ts). */
  readonly typescriptServer: TsServer;
  /** The claimsUnder markers found above a directory, each package.json read once while it stays the same. */
  private readonly markers: ProjectMarkers;

  constructor(custom: readonly ServerDefinition[] = [], options: { typescriptServer?: TsServer; markerFiles?: MarkerFiles } = {}) {
    this.typescriptServer = options.typescriptServer ?? DEFAULT_TS_SERVER;
    this.markers = new ProjectMarkers(options.markerFiles);
    const notChosen = new Set(TS_SERVERS.filter((t) => t !== this.typescriptServer).map((t) => TS_SERVER_IDS[t]));
    const taken = new Set([...custom, ...BUILTIN_SERVERS].map((s) => s.id));
    this.servers = [...custom, ...BUILTIN_SERVERS, ...KNOWN_SERVER_DEFINITIONS.filter((s) => !taken.has(s.id))];
    this.routed = this.servers.filter((s) => !notChosen.has(s.id));
    this.customCount = custom.length;
  }

  /**
   * The server and language id for a file, by extension. A configured server always takes its
   * extensions; otherwise the first installed server in order, or the first when none is (so the
   * error names the preferred one).
   */
  forFile(path: string): { server: ServerDefinition; languageId: string } | undefined {
    const name = basename(path).toLowerCase();
    const ext = extname(path).toLowerCase();
    // A whole file name is routed by its name first (Dockerfile; compose.yaml, YAML that only a
    // compose server reads as such); when no server for the name is installed, by its extension.
    const named = this.chooseFor(name, path);
    if (named && (!ext || named.installed)) return named.route;
    return this.claimedUnder(ext, path) ?? this.chooseFor(ext || name, path)?.route;
  }

  /**
   * The installed server that claims the extension for files under a directory holding one of its
   * markers (claimsUnder: Ansible's YAML), unless a configured server takes the extension everywhere.
   */
  private claimedUnder(ext: string, path: string): { server: ServerDefinition; languageId: string } | undefined {
    if (!ext || !isAbsolute(path)) return undefined;
    const candidates = this.routed.filter((s) => s.extensions[ext] !== undefined);
    if (candidates.some((s) => !s.claimsUnder && this.routed.indexOf(s) < this.customCount)) return undefined;
    const dir = dirname(path);
    // Installed first: that answer is remembered, and a server that is not needs no look up the tree.
    const server = candidates.find((s) => s.claimsUnder && this.isInstalled(s, dir) && this.markers.above(dir, s.claimsUnder));
    return server ? { server, languageId: server.extensions[ext] as string } : undefined;
  }

  /** The server for one extension or file name: a configured one, else the first installed in order, else the first (servers that claim it only under their markers aside). */
  private chooseFor(key: string, path: string): { route: { server: ServerDefinition; languageId: string }; installed: boolean } | undefined {
    // A server that claims an extension only under its markers is still the one for it where no other server knows it (.vue).
    const claiming = this.routed.filter((s) => s.extensions[key] !== undefined);
    const everywhere = claiming.filter((s) => !s.claimsUnder);
    const candidates = everywhere.length > 0 ? everywhere : claiming;
    const first = candidates[0];
    if (!first) return undefined;
    const dir = isAbsolute(path) ? dirname(path) : process.cwd();
    const chosen = candidates.length === 1 || this.routed.indexOf(first) < this.customCount ? first : (candidates.find((s) => this.isInstalled(s, dir)) ?? first);
    return { route: { server: chosen, languageId: chosen.extensions[key] as string }, installed: this.isInstalled(chosen, dir) };
  }

  private isInstalled(server: ServerDefinition, dir: string): boolean {
    let known = this.installed.get(server.id);
    if (known === undefined) {
      known = server.resolve(dir) !== undefined;
      this.installed.set(server.id, known);
    }
    return known;
  }

  forFileOrThrow(path: string): { server: ServerDefinition; languageId: string } {
    const found = this.forFile(path);
    if (found) return found;
    throw new UserError(
      'unknown_language',
      `No language server is configured for ${extname(path) || 'files without an extension'} (${path}). Known extensions: ${this.knownExtensions().join(' ')}. Add a custom server with --config (see docs/tools.md).`,
    );
  }

  /**
   * The server for a language id or server id (python, typescript, javascript, go, cpp, pyright…):
   * `typescript` is the chosen TypeScript server; the other one answers only to its own id.
   */
  forLanguage(language: string): ServerDefinition {
    const id = LANGUAGE_ALIASES[language.toLowerCase()] ?? language.toLowerCase();
    const server = this.routed.find((s) => s.id === id || s.languageIds.includes(id)) ?? this.servers.find((s) => s.id === id);
    if (server) return server;
    throw new UserError(
      'unknown_language',
      `Unknown language "${language}". Known: ${[...new Set(this.servers.flatMap((s) => s.languageIds))].join(', ')}.`,
    );
  }

  knownExtensions(): string[] {
    return [...new Set(this.routed.flatMap((s) => Object.keys(s.extensions)))];
  }
}
