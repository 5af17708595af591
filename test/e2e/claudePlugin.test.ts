import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable } from '@agent-lsp/lsp';
import { BIN, REPO_ROOT } from '../helpers/paths.js';

const run = promisify(execFile);

/**
 * `agent-lsp init --client claude` installs the agent-lsp Claude Code plugin (MCP server, skills,
 * lspServers running `agent-lsp lsp`) with Claude Code's own CLI, and `uninstall` takes it out.
 * The CLI is the one .ci/run installs (pinned, from npm) onto PATH; its plugin commands work
 * offline. HOME and CLAUDE_CONFIG_DIR are a temporary directory, so nothing of the machine's
 * Claude Code is read or written.
 */
const CLAUDE = findExecutable('claude');
/** Every skill we ship (packages/skills/skills/*.md) is in the plugin. */
const SKILLS = readdirSync(join(REPO_ROOT, 'packages', 'skills', 'skills')).filter((f) => f.endsWith('.md')).length;

let home: string;
const env = () => ({
  ...(process.env as Record<string, string>),
  HOME: home,
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
  AGENT_LSP_HOME: join(home, 'agent-lsp-home'),
  DISABLE_TELEMETRY: '1',
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
});

async function exec(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { env: env(), cwd: join(home, 'project'), timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
const agentLsp = (...args: string[]) => exec(process.execPath, [BIN, ...args]);
const claude = (...args: string[]) => exec(CLAUDE as string, args);

describe(CLAUDE ? 'Claude Code plugin' : 'Claude Code plugin: not run (Claude Code\'s CLI, claude, is not on PATH; .ci/run installs it)', () => {
  beforeAll(() => {
    home = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-claude-home-')));
    mkdirSync(join(home, 'project'));
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('init installs it (validated, listed with its MCP server, LSP servers and every skill), again changes nothing, uninstall removes it', async () => {
    expect(CLAUDE, 'claude on PATH').toBeDefined();
    // An entry an earlier init wrote: the plugin carries the server now, so it goes (no tool twice).
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: { 'agent-lsp': { type: 'stdio', command: 'old' }, theirs: { command: 'x' } } }));
    const first = await agentLsp('init', '--client', 'claude');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/Successfully installed plugin: agent-lsp@agent-lsp/);
    const dir = join(home, 'agent-lsp-home', 'state', 'claude-plugin');
    const manifest = JSON.parse(readFileSync(join(dir, 'plugin', '.claude-plugin', 'plugin.json'), 'utf8')) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
      lspServers: Record<string, { command: string; args: string[]; extensionToLanguage: Record<string, string> }>;
    };
    expect(Object.keys(manifest.mcpServers)).toEqual(['agent-lsp']);
    expect(manifest.lspServers['pyright']).toMatchObject({ command: realpathSync(BIN), args: ['lsp', '--language', 'pyright'], extensionToLanguage: { '.py': 'python' } });
    expect(manifest.lspServers['typescript']).toMatchObject({ args: ['lsp', '--language', 'typescript'], extensionToLanguage: { '.ts': 'typescript', '.tsx': 'typescriptreact' } });
    // No extension claimed by two entries.
    const claimed = Object.values(manifest.lspServers).flatMap((s) => Object.keys(s.extensionToLanguage));
    expect(new Set(claimed).size).toBe(claimed.length);
    expect((JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')) as { mcpServers: unknown }).mcpServers).toEqual({ theirs: { command: 'x' } });

    for (const target of [dir, join(dir, 'plugin')]) {
      const validated = await claude('plugin', 'validate', target);
      expect(validated.code, validated.stdout + validated.stderr).toBe(0);
      expect(validated.stdout).toMatch(/Validation passed/);
      expect(validated.stdout + validated.stderr).not.toMatch(/✘|error/i);
    }
    const details = await claude('plugin', 'details', 'agent-lsp');
    expect(details.code, details.stderr).toBe(0);
    expect(details.stdout).toMatch(/MCP servers \(1\)\s+agent-lsp/);
    expect(details.stdout).toMatch(/LSP servers \(\d+\)\s+.*\bpyright\b/);
    expect(details.stdout).toMatch(/LSP servers \(\d+\)\s+.*\btypescript\b/);
    expect(details.stdout).toMatch(new RegExp(`Skills \\(${SKILLS}\\)\\s+.*\\blsp-rename\\b`));

    // What Claude Code reads: its settings (the CLI may reorder keys) and its list of plugins.
    const state = async () => ({ settings: JSON.parse(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')) as unknown, list: (await claude('plugin', 'list')).stdout });
    const before = await state();
    expect(before.list).toMatch(/agent-lsp@agent-lsp[\s\S]*enabled/);
    const again = await agentLsp('init', '--client', 'claude');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/already current/);
    expect(again.stdout).toMatch(/already installed/);
    expect(await state()).toEqual(before);

    const removed = await agentLsp('uninstall');
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(/Successfully uninstalled plugin: agent-lsp/);
    const list = await claude('plugin', 'list');
    expect(list.stdout).not.toMatch(/agent-lsp/);
    expect((await claude('plugin', 'marketplace', 'list')).stdout).not.toMatch(/agent-lsp/);
    expect(existsSync(dir)).toBe(false);
  }, 240_000);
});
