import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ServerRegistry, type ServerDefinition } from '@agent-lsp/lsp';
import { AGENT_LSP_VERSION } from '@agent-lsp/protocol';
import { stateHome } from '@agent-lsp/session';
import { builtinSkills, renderClaudeSkill } from '@agent-lsp/skills';
import type { ServerCommand as ServerCommandLine } from '../initCommand.js';
import { SERVER_NAME } from './clientTargets.js';

/** The plugin's and its local marketplace's name: `claude plugin install agent-lsp@agent-lsp`. */
export const CLAUDE_PLUGIN_NAME = 'agent-lsp';
export const CLAUDE_PLUGIN_ID = `${CLAUDE_PLUGIN_NAME}@${CLAUDE_PLUGIN_NAME}`;

/** Where `agent-lsp init --client claude` writes the local marketplace: with our durable state, so uninstall removes it. */
export function claudeMarketplaceDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateHome(env), 'claude-plugin');
}

interface LspServerEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
  extensionToLanguage: Record<string, string>;
}

/**
 * One `lspServers` entry per language server that owns an extension and is installed here (pyright
 * and typescript-language-server always are: they ship with agent-lsp). Each runs `agent-lsp lsp
 * --language <server>`, relayed to the broker our MCP tools use for the same root, so Claude Code's
 * LSP tool and its diagnostics after edits share the warm index. An extension goes to the server
 * the registry routes it to, so no two entries claim one.
 */
export function claudeLspServers(cmd: ServerCommandLine, registry = new ServerRegistry(), dir = process.cwd()): Record<string, LspServerEntry> {
  const owned = new Map<ServerDefinition, Record<string, string>>();
  for (const ext of registry.knownExtensions().filter((e) => e.startsWith('.'))) {
    const route = registry.forFile(`file${ext}`);
    if (!route) continue;
    const map = owned.get(route.server) ?? {};
    map[ext] = route.languageId;
    owned.set(route.server, map);
  }
  const entries: Record<string, LspServerEntry> = {};
  for (const [server, extensionToLanguage] of owned) {
    if (server.resolve(dir) === undefined) continue;
    entries[server.id] = { command: cmd.command, args: [...cmd.args, 'lsp', '--language', server.id], ...(cmd.env ? { env: { ...cmd.env } } : {}), extensionToLanguage };
  }
  return entries;
}

const DESCRIPTION = 'Code intelligence of real language servers for Claude Code: the agent-lsp MCP tools, its skills, and Claude Code\'s LSP tool and diagnostics on the same warm broker per project that editors and other agents share.';

/** The files of the plugin and its one-plugin marketplace, by path relative to the marketplace directory. */
export function claudePluginFiles(cmd: ServerCommandLine, registry?: ServerRegistry): Map<string, string> {
  const files = new Map<string, string>();
  const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
  const author = { name: 'agent-lsp' };
  files.set(
    '.claude-plugin/marketplace.json',
    json({ name: CLAUDE_PLUGIN_NAME, description: 'The agent-lsp plugin, written on this machine by agent-lsp init', owner: author, plugins: [{ name: CLAUDE_PLUGIN_NAME, source: './plugin', description: DESCRIPTION, version: AGENT_LSP_VERSION }] }),
  );
  files.set(
    'plugin/.claude-plugin/plugin.json',
    json({
      name: CLAUDE_PLUGIN_NAME,
      version: AGENT_LSP_VERSION,
      description: DESCRIPTION,
      author,
      license: 'MIT',
      mcpServers: { [SERVER_NAME]: { command: cmd.command, args: [...cmd.args], ...(cmd.env ? { env: { ...cmd.env } } : {}) } },
      lspServers: claudeLspServers(cmd, registry),
    }),
  );
  files.set(
    'plugin/README.md',
    [
      '# agent-lsp for Claude Code',
      '',
      'Written by `agent-lsp init --client claude`; `agent-lsp uninstall` removes it. It carries three things:',
      '',
      '- the agent-lsp MCP server (navigation, diagnostics, speculative edits, safe refactors of real language servers);',
      '- the agent-lsp skills (`lsp-rename`, `lsp-safe-edit`, `lsp-verify`...), workflows over those tools;',
      '- `lspServers` entries that run `agent-lsp lsp`, so Claude Code\'s own LSP tool and its automatic diagnostics after edits',
      '  use the same warm language server per project as the MCP tools, your editor and other agents, instead of each session indexing again.',
      '',
      'See https://github.com/agent-lsp and docs/setup.md of agent-lsp.',
      '',
    ].join('\n'),
  );
  for (const skill of builtinSkills()) files.set(`plugin/skills/${skill.name}/SKILL.md`, renderClaudeSkill(skill));
  return files;
}

/**
 * Writes the marketplace directory: every file of this version, and nothing else (a skill an
 * earlier version had is gone). Returns whether anything changed. The directory is ours alone.
 */
export function writeClaudeMarketplace(dir: string, files: Map<string, string>): boolean {
  const current = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);
  const unchanged = [...files].every(([rel, text]) => current(join(dir, rel)) === text) && sameFileSet(dir, files);
  if (unchanged) return false;
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  for (const [rel, text] of files) {
    const path = join(temp, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(temp, dir);
  return true;
}

function sameFileSet(dir: string, files: Map<string, string>): boolean {
  const skillsDir = join(dir, 'plugin', 'skills');
  if (!existsSync(skillsDir)) return false;
  const wanted = new Set([...files.keys()].filter((k) => k.startsWith('plugin/skills/')).map((k) => k.split('/')[2]));
  const present = readdirSync(skillsDir);
  return present.length === wanted.size && present.every((n) => wanted.has(n));
}
