import { UserError } from '@agent-lsp/protocol';
import { INSTALL_COMPANIONS, INSTALL_ROUTES, KNOWN_SERVERS, type InstallRoute, type ServerDefinition, type ServerRegistry } from '@agent-lsp/lsp';

/** A server `servers install` is asked for: the language it was named by, the server, its route. */
export interface ServerTarget {
  /** As the user wrote it (`python`, `python:basedpyright`, `intelephense`). */
  asked: string;
  server: ServerDefinition;
  route: InstallRoute;
}

/** How a server is installed: its route in the catalogue, else by hand as the table (or its profile) says. */
export function routeOf(server: ServerDefinition): InstallRoute {
  return INSTALL_ROUTES[server.id] ?? { kind: 'none', manual: KNOWN_SERVERS.find((k) => k.id === server.id)?.installHint ?? server.installHint };
}

/** Every language the registry knows, sorted. */
export function knownLanguages(registry: ServerRegistry): string[] {
  return [...new Set(registry.servers.flatMap((s) => s.languageIds))].sort();
}

/** The servers of a language in the order files are routed to them: the default first. */
export function serversOfLanguage(registry: ServerRegistry, language: string): ServerDefinition[] {
  const first = registry.forLanguage(language);
  const others = registry.servers.filter((s) => s !== first && s.languageIds.includes(language));
  return [first, ...others];
}

function unknown(what: string, registry: ServerRegistry): UserError {
  return new UserError(
    'unknown_language',
    `${what} Languages agent-lsp knows a server for: ${knownLanguages(registry).join(', ')}. ` +
      'To use another server, install it yourself and add it to a config file passed with --config (or AGENT_LSP_CONFIG): ' +
      '{"servers": [{"language_id": "lua", "extensions": [".lua"], "command": ["lua-language-server"]}]} (docs/setup.md).',
  );
}

/**
 * `python` (the language's default server), `python:basedpyright` (that server of the language)
 * or `basedpyright` (a server by id). Every name is checked before anything is installed: one
 * unknown name fails the whole command and changes nothing.
 */
export function resolveTargets(names: readonly string[], registry: ServerRegistry): ServerTarget[] {
  return names.flatMap((asked) => {
    const [language, serverId] = asked.includes(':') ? (asked.split(':', 2) as [string, string]) : [asked, undefined];
    let server: ServerDefinition;
    try {
      server = registry.forLanguage(language);
    } catch {
      throw unknown(`Unknown language or server "${language}".`, registry);
    }
    if (serverId !== undefined) {
      // `gopls:…` names a server, not a language: it has no servers of its own to choose from.
      const lower = language.toLowerCase();
      const languageIds = server.id === lower && !server.languageIds.includes(lower) ? [] : server.languageIds;
      const named = registry.servers.find((s) => s.id === serverId.toLowerCase() && s.languageIds.some((l) => languageIds.includes(l)));
      if (!named) {
        const ofLanguage = registry.servers.filter((s) => s.languageIds.some((l) => languageIds.includes(l))).map((s) => s.id);
        throw new UserError('unknown_language', `No server "${serverId}" for ${language}: its servers are ${ofLanguage.join(', ') || 'none (name a language, not a server, before the colon)'}.`);
      }
      server = named;
    }
    // The tools it runs that are not its own package (INSTALL_COMPANIONS) come with it, by their own routes.
    return [{ asked, server, route: routeOf(server) }, ...(INSTALL_COMPANIONS[server.id] ?? []).map((route) => ({ asked, server, route }))];
  });
}
