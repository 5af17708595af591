import { homedir } from 'node:os';
import { join } from 'node:path';

/** The MCP clients `agent-lsp init` can wire, and where each keeps its servers. */
export type ClientId = 'claude' | 'cursor' | 'vscode' | 'windsurf' | 'gemini' | 'codex';
export type Scope = 'user' | 'project';

export const CLIENT_IDS: readonly ClientId[] = ['claude', 'cursor', 'vscode', 'windsurf', 'gemini', 'codex'];

export const CLIENT_NAMES: Readonly<Record<ClientId, string>> = {
  claude: 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  windsurf: 'Windsurf',
  gemini: 'Gemini CLI',
  codex: 'Codex CLI',
};

/** Our entry's name in every client's list of servers. */
export const SERVER_NAME = 'agent-lsp';

export interface ConfigTarget {
  client: ClientId;
  scope: Scope;
  file: string;
  format: 'json' | 'toml';
  /** JSON: the object holding the servers (`mcpServers`; VS Code: `servers`). TOML: the table prefix. */
  key: string;
  /** The server entry this client expects. */
  entry(command: string, args: readonly string[], env?: Readonly<Record<string, string>>): Record<string, unknown>;
  /** Project scope: the project the file must stay inside, symlinks resolved (see editClientConfig). */
  project?: string;
}

const plain = (command: string, args: readonly string[], env?: Readonly<Record<string, string>>) => ({ command, args: [...args], ...(env ? { env: { ...env } } : {}) });
const typed = (command: string, args: readonly string[], env?: Readonly<Record<string, string>>) => ({ type: 'stdio', ...plain(command, args, env) });

/** VS Code's user profile directory per platform. */
function vscodeUserDir(home: string): string {
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'Code', 'User');
  if (process.platform === 'win32') return join(process.env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'Code', 'User');
  return join(process.env['XDG_CONFIG_HOME'] || join(home, '.config'), 'Code', 'User');
}

/** The file for a client and scope, or why there is none (Windsurf and Codex have only a user file). */
export function configTarget(client: ClientId, scope: Scope, project: string, home = homedir()): ConfigTarget | string {
  const target = clientTarget(client, scope, project, home);
  if (typeof target !== 'string' && scope === 'project') target.project = project;
  return target;
}

function clientTarget(client: ClientId, scope: Scope, project: string, home: string): ConfigTarget | string {
  switch (client) {
    case 'claude':
      // Claude Code: project servers in .mcp.json, user servers in ~/.claude.json (its `claude mcp add --scope user`).
      return { client, scope, format: 'json', key: 'mcpServers', entry: typed, file: scope === 'project' ? join(project, '.mcp.json') : join(home, '.claude.json') };
    case 'cursor':
      return { client, scope, format: 'json', key: 'mcpServers', entry: plain, file: scope === 'project' ? join(project, '.cursor', 'mcp.json') : join(home, '.cursor', 'mcp.json') };
    case 'vscode':
      return { client, scope, format: 'json', key: 'servers', entry: typed, file: scope === 'project' ? join(project, '.vscode', 'mcp.json') : join(vscodeUserDir(home), 'mcp.json') };
    case 'windsurf':
      if (scope === 'project') return 'Windsurf reads MCP servers only from ~/.codeium/windsurf/mcp_config.json: use --scope user.';
      return { client, scope, format: 'json', key: 'mcpServers', entry: plain, file: join(home, '.codeium', 'windsurf', 'mcp_config.json') };
    case 'gemini':
      return { client, scope, format: 'json', key: 'mcpServers', entry: plain, file: scope === 'project' ? join(project, '.gemini', 'settings.json') : join(home, '.gemini', 'settings.json') };
    case 'codex':
      if (scope === 'project') return 'Codex reads MCP servers from ~/.codex/config.toml: use --scope user.';
      return { client, scope, format: 'toml', key: 'mcp_servers', entry: plain, file: join(home, '.codex', 'config.toml') };
  }
}

/** Every file any client could hold our entry in: what uninstall looks at. */
export function allTargets(project: string, home = homedir()): ConfigTarget[] {
  const out: ConfigTarget[] = [];
  for (const client of CLIENT_IDS) {
    for (const scope of ['user', 'project'] as const) {
      const t = configTarget(client, scope, project, home);
      if (typeof t !== 'string') out.push(t);
    }
  }
  return out;
}

/** The command line a client runs to start agent-lsp (initCommand.ts `serverCommand`). */
export interface ServerCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}
