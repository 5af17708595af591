import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathWithout } from '../helpers/onPath.js';
import { BIN } from '../helpers/paths.js';

const run = promisify(execFile);

/**
 * `agent-lsp init` and `uninstall` against a temporary HOME (and AGENT_LSP_HOME inside it): the
 * files each client reads, merged without touching the rest, refused when malformed.
 */
let home: string;
let project: string;

beforeEach(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-init-home-')));
  project = join(home, 'project');
  mkdirSync(project);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...(process.env as Record<string, string>), HOME: home, AGENT_LSP_HOME: join(home, 'agent-lsp-home'), XDG_CONFIG_HOME: join(home, '.config'), PATH: pathWithout('claude') }; // Claude Code's CLI installs a plugin instead: claudePlugin.test.ts
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env, cwd: project, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const read = (path: string) => readFileSync(path, 'utf8');
/** The `key` object of a JSON config file. */
const servers = (path: string, key = 'mcpServers') => (JSON.parse(read(path)) as Record<string, Record<string, unknown>>)[key];
/** bin/agent-lsp run as a program (its sh part: the start-up snapshot, the fronts' flags), told this node. */
const ourEntry = () => ({ command: realpathSync(BIN), args: [], env: { AGENT_LSP_NODE: process.execPath } });

describe('agent-lsp init', () => {
  it('writes the entry each client reads, with this node and entry point, and a second run changes nothing', async () => {
    const result = await cli('init', '--client', 'claude', 'cursor', 'windsurf', 'gemini', 'codex', 'vscode', '--scope', 'user');
    expect(result.code).toBe(0);
    expect(JSON.parse(read(join(home, '.claude.json')))).toEqual({ mcpServers: { 'agent-lsp': { type: 'stdio', ...ourEntry() } } });
    expect(JSON.parse(read(join(home, '.cursor', 'mcp.json')))).toEqual({ mcpServers: { 'agent-lsp': ourEntry() } });
    expect(JSON.parse(read(join(home, '.codeium', 'windsurf', 'mcp_config.json')))).toEqual({ mcpServers: { 'agent-lsp': ourEntry() } });
    expect(JSON.parse(read(join(home, '.gemini', 'settings.json')))).toEqual({ mcpServers: { 'agent-lsp': ourEntry() } });
    expect(JSON.parse(read(join(home, '.config', 'Code', 'User', 'mcp.json')))).toEqual({ servers: { 'agent-lsp': { type: 'stdio', ...ourEntry() } } });
    expect(read(join(home, '.codex', 'config.toml'))).toBe(`[mcp_servers.agent-lsp]\ncommand = ${JSON.stringify(realpathSync(BIN))}\nargs = []\nenv = { AGENT_LSP_NODE = ${JSON.stringify(process.execPath)} }\n`);
    expect(result.stdout).toContain(`claude mcp add --scope user agent-lsp -e AGENT_LSP_NODE=${process.execPath} -- ${realpathSync(BIN)}`);

    const before = ['.claude.json', '.codex/config.toml', '.gemini/settings.json'].map((f) => read(join(home, f)));
    const again = await cli('init', '--client', 'claude,codex,gemini');
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/added|updated/);
    expect(['.claude.json', '.codex/config.toml', '.gemini/settings.json'].map((f) => read(join(home, f)))).toEqual(before);
  });

  it('merges into existing files keeping every other byte, JSON with comments and TOML', async () => {
    const gemini = join(home, '.gemini', 'settings.json');
    mkdirSync(join(home, '.gemini'));
    const settings = '{\n  // my theme\n  "theme": "GitHub",\n  "mcpServers": {\n    "other": {"command": "other-mcp"}\n  }\n}\n';
    writeFileSync(gemini, settings);
    const codex = join(home, '.codex', 'config.toml');
    mkdirSync(join(home, '.codex'));
    const toml = '# mine\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other-mcp"\nargs = [\n  "--x",\n]\n';
    writeFileSync(codex, toml);
    expect((await cli('init', '--client', 'gemini', 'codex')).code).toBe(0);
    const merged = read(gemini);
    expect(merged.startsWith('{\n  // my theme\n  "theme": "GitHub",\n  "mcpServers": {\n    "other": {"command": "other-mcp"},\n    "agent-lsp": {\n')).toBe(true);
    expect(read(codex).startsWith(`${toml}\n[mcp_servers.agent-lsp]\n`)).toBe(true);

    expect((await cli('uninstall')).code).toBe(0);
    expect(read(codex)).toBe(toml);
    expect(read(gemini)).not.toContain('agent-lsp');
    expect(read(gemini)).toContain('"other": {"command": "other-mcp"}');
  });

  it('writes project configs: .mcp.json, .cursor/mcp.json, .vscode/mcp.json (key servers)', async () => {
    expect((await cli('init', '--client', 'claude', 'cursor', 'vscode', '--scope', 'project')).code).toBe(0);
    expect(servers(join(project, '.mcp.json'))?.['agent-lsp']).toEqual({ type: 'stdio', ...ourEntry() });
    expect(servers(join(project, '.cursor', 'mcp.json'))?.['agent-lsp']).toEqual(ourEntry());
    expect(servers(join(project, '.vscode', 'mcp.json'), 'servers')?.['agent-lsp']).toEqual({ type: 'stdio', ...ourEntry() });
  });

  it('refuses a malformed file, an unknown client and a scope the client lacks, writing nothing; --dry-run writes nothing', async () => {
    mkdirSync(join(home, '.cursor'));
    const bad = '{ "mcpServers": { "x": ';
    writeFileSync(join(home, '.cursor', 'mcp.json'), bad);
    const refused = await cli('init', '--client', 'cursor', 'gemini');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/mcp\.json: not changed: it is not valid JSON/);
    expect(read(join(home, '.cursor', 'mcp.json'))).toBe(bad);
    // The other client is unaffected.
    expect(servers(join(home, '.gemini', 'settings.json'))?.['agent-lsp']).toEqual(ourEntry());

    mkdirSync(join(home, '.codex'));
    writeFileSync(join(home, '.codex', 'config.toml'), 'model = "o3"\nnot toml at all\n');
    const badToml = await cli('init', '--client', 'codex');
    expect(badToml.code).toBe(1);
    expect(badToml.stderr).toContain('not valid TOML (line 2');
    expect(read(join(home, '.codex', 'config.toml'))).toBe('model = "o3"\nnot toml at all\n');

    const unknown = await cli('init', '--client', 'emacs');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown client "emacs"; known: claude, cursor, vscode, windsurf, gemini, codex');

    const noProject = await cli('init', '--client', 'windsurf', '--scope', 'project');
    expect(noProject.code).toBe(1);
    expect(noProject.stderr).toContain('use --scope user');

    const noTty = await cli('init');
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain('--client');

    const dry = await cli('init', '--client', 'claude', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('(dry run) would have added agent-lsp to');
    expect(existsSync(join(home, '.claude.json'))).toBe(false);
  });
});

describe('agent-lsp uninstall', () => {
  it('removes our entries, the skills we installed (not one the user changed) and our home, and nothing else; --dry-run removes nothing', async () => {
    expect((await cli('init', '--client', 'cursor', 'codex')).code).toBe(0);
    expect((await cli('skills', 'install')).code).toBe(0);
    const ours = join(home, '.claude', 'skills', 'lsp-rename');
    const edited = join(home, '.claude', 'skills', 'lsp-verify', 'SKILL.md');
    const theirs = join(home, '.claude', 'skills', 'my-skill');
    expect(existsSync(join(ours, 'SKILL.md'))).toBe(true);
    writeFileSync(edited, read(edited) + '\nMy own note.\n');
    mkdirSync(theirs, { recursive: true });
    writeFileSync(join(theirs, 'SKILL.md'), '---\nname: my-skill\n---\nmentions agent-lsp but is mine\n');
    mkdirSync(join(home, 'agent-lsp-home', 'daemons'), { recursive: true });

    const dry = await cli('uninstall', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would remove ${join(ours, 'SKILL.md')}`);
    expect(dry.stdout).toContain(`would keep ${edited} (changed by you)`);
    expect(dry.stdout).toContain(`would remove ${join(home, 'agent-lsp-home')}`);
    expect(existsSync(ours)).toBe(true);
    expect(read(join(home, '.cursor', 'mcp.json'))).toContain('agent-lsp');

    const done = await cli('uninstall');
    expect(done.code).toBe(0);
    expect(JSON.parse(read(join(home, '.cursor', 'mcp.json')))).toEqual({ mcpServers: {} });
    expect(read(join(home, '.codex', 'config.toml'))).toBe('');
    expect(existsSync(ours)).toBe(false);
    expect(read(edited)).toContain('My own note.');
    expect(existsSync(theirs)).toBe(true);
    expect(existsSync(join(home, 'agent-lsp-home'))).toBe(false);
  });
});
