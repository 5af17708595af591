import { serversHome, ServerRegistry, type InstallRoute } from '@agent-lsp/lsp';
import { knownLanguages, routeOf, serversOfLanguage } from './serverTargets.js';

export interface ServerListing {
  language: string;
  server: string;
  default: boolean;
  route: string;
  installed: boolean;
  /** bundled | installed | PATH | project, and the command. */
  source?: string;
  command?: string;
  details?: Record<string, string>;
}

/** A route in one phrase: `npm intelephense@1.18.5`, `apt clangd (system-wide, root)`, `bundled`, `by hand: …`. */
export function describeRoute(route: InstallRoute): string {
  switch (route.kind) {
    case 'npm':
    case 'pip':
    case 'go':
    case 'cargo':
      return `${route.kind} ${route.packages.map((p) => `${p.name}@${p.version}`).join(' ')}`;
    case 'apt':
      return `apt ${route.packages.map((p) => p.name).join(' ')} (system-wide, as root)`;
    case 'rustup':
      return `rustup component ${route.component}`;
    case 'bundled':
      return 'bundled with agent-lsp';
    case 'none':
      return `by hand: ${route.manual}`;
  }
}

/** Every language → its servers (the default first), each with its install route and where it is found now, if it is. */
export function listServers(root: string, registry = new ServerRegistry()): ServerListing[] {
  const rows: ServerListing[] = [];
  for (const language of knownLanguages(registry)) {
    serversOfLanguage(registry, language).forEach((server, index) => {
      const resolved = server.resolve(root);
      rows.push({
        language,
        server: server.id,
        default: index === 0,
        route: describeRoute(routeOf(server)),
        installed: resolved !== undefined,
        ...(resolved ? { source: resolved.source, command: resolved.command.join(' '), details: resolved.details } : {}),
      });
    });
  }
  return rows;
}

export function formatServerList(rows: readonly ServerListing[]): string {
  const lines = [`Servers agent-lsp installs go to ${serversHome()} (\`agent-lsp servers install LANG[:SERVER]…\`).`];
  let language = '';
  for (const r of rows) {
    if (r.language !== language) {
      language = r.language;
      lines.push(language);
    }
    const where = r.installed ? `✓ ${r.source}: ${r.command}${r.details?.['installed'] ? ` (${r.details['installed']})` : ''}` : '– not installed';
    lines.push(`  ${r.default ? '*' : ' '} ${r.server.padEnd(30)} ${r.route.padEnd(48)} ${where}`);
  }
  lines.push('* the default server of the language; name another with LANG:SERVER (e.g. python:basedpyright).');
  return lines.join('\n');
}
