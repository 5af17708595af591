import { extname } from 'node:path';
import { UserError } from '@agent-lsp/protocol';
import { BUILTIN_SERVERS } from './builtinServers.js';
import type { ServerDefinition } from './serverProfile.js';

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
};

/** The servers agent-lsp knows: custom ones first, so a config can take over an extension. */
export class ServerRegistry {
  readonly servers: readonly ServerDefinition[];

  constructor(custom: readonly ServerDefinition[] = []) {
    this.servers = [...custom, ...BUILTIN_SERVERS];
  }

  /** The server and language id for a file, by extension. */
  forFile(path: string): { server: ServerDefinition; languageId: string } | undefined {
    const ext = extname(path).toLowerCase();
    for (const server of this.servers) {
      const languageId = server.extensions[ext];
      if (languageId) return { server, languageId };
    }
    return undefined;
  }

  forFileOrThrow(path: string): { server: ServerDefinition; languageId: string } {
    const found = this.forFile(path);
    if (found) return found;
    throw new UserError(
      'unknown_language',
      `No language server is configured for ${extname(path) || 'files without an extension'} (${path}). Known extensions: ${this.knownExtensions().join(' ')}. Add a custom server with --config (see docs/tools.md).`,
    );
  }

  /** The server for a language id or server id (python, typescript, javascript, go, cpp, pyright…). */
  forLanguage(language: string): ServerDefinition {
    const id = LANGUAGE_ALIASES[language.toLowerCase()] ?? language.toLowerCase();
    const server = this.servers.find((s) => s.id === id || s.languageIds.includes(id));
    if (server) return server;
    throw new UserError(
      'unknown_language',
      `Unknown language "${language}". Known: ${[...new Set(this.servers.flatMap((s) => s.languageIds))].join(', ')}.`,
    );
  }

  knownExtensions(): string[] {
    return [...new Set(this.servers.flatMap((s) => Object.keys(s.extensions)))];
  }
}
