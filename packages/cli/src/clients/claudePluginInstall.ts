import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findExecutable } from '@agent-lsp/lsp';
import type { ServerCommand } from '../initCommand.js';
import { CLAUDE_PLUGIN_ID, CLAUDE_PLUGIN_NAME, claudeMarketplaceDir, claudePluginFiles, writeClaudeMarketplace } from './claudePlugin.js';

export interface PluginStep {
  /** Installed: the plugin is in Claude Code (it carries the MCP server, so ~/.claude.json needs no entry). */
  installed: boolean;
  failed: boolean;
  lines: string[];
}

/** Claude Code's CLI, run as the user runs it; its plugin commands work offline. */
function claude(cli: string, args: string[]): { ok: boolean; output: string } {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.replace(/\s+$/, '');
  return { ok: r.status === 0, output: r.error ? `${r.error.message} ${output}` : output };
}

/** The last line a command printed (Claude Code's CLI draws progress before its verdict). */
const verdict = (output: string) => output.split(/\r?\n|\r/).filter((l) => l.trim()).at(-1)?.trim() ?? '';

/**
 * `agent-lsp init --client claude` (user scope): writes the plugin as a local marketplace under our
 * state and installs it with Claude Code's own CLI (`plugin marketplace add`, `plugin install`);
 * both are idempotent. Without the CLI on PATH the files are written and the two commands printed.
 */
export function installClaudePlugin(cmd: ServerCommand, dryRun: boolean): PluginStep {
  const dir = claudeMarketplaceDir();
  const cli = findExecutable('claude');
  if (dryRun) return { installed: cli !== undefined, failed: false, lines: [`(dry run) would write the Claude Code plugin to ${dir}${cli ? ' and install it' : ''}`] };
  const changed = writeClaudeMarketplace(dir, claudePluginFiles(cmd));
  const lines = [`${changed ? 'wrote' : 'already current:'} the Claude Code plugin (MCP server, skills, LSP servers) in ${dir}`];
  if (!cli) {
    lines.push(`  Claude Code's CLI (claude) is not on PATH; to install the plugin: claude plugin marketplace add ${dir} && claude plugin install ${CLAUDE_PLUGIN_ID}`);
    return { installed: false, failed: false, lines };
  }
  for (const args of [['plugin', 'marketplace', 'add', dir], ['plugin', 'install', CLAUDE_PLUGIN_ID, '--scope', 'user']]) {
    const r = claude(cli, args);
    lines.push(`  claude ${args.join(' ')}: ${verdict(r.output)}`);
    if (!r.ok) return { installed: false, failed: true, lines };
  }
  return { installed: true, failed: false, lines };
}

/** `agent-lsp uninstall`: the plugin out of Claude Code, then its marketplace (the directory goes with our state). */
export function uninstallClaudePlugin(dryRun: boolean): PluginStep {
  const dir = claudeMarketplaceDir();
  const cli = findExecutable('claude');
  if (!cli || !existsSync(dir)) return { installed: false, failed: false, lines: [] };
  if (dryRun) return { installed: true, failed: false, lines: [`(dry run) would uninstall the Claude Code plugin ${CLAUDE_PLUGIN_ID} and remove its marketplace`] };
  const lines: string[] = [];
  let failed = false;
  for (const args of [['plugin', 'uninstall', CLAUDE_PLUGIN_ID, '--scope', 'user'], ['plugin', 'marketplace', 'remove', CLAUDE_PLUGIN_NAME]]) {
    const r = claude(cli, args);
    // Already gone is what we want; anything else is said.
    if (!r.ok && !/not (found|installed)/i.test(r.output)) failed = true;
    lines.push(`claude ${args.join(' ')}: ${verdict(r.output)}`);
  }
  return { installed: false, failed, lines };
}
