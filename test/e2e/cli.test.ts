import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { onPath } from '../helpers/onPath.js';
import { BIN, FIXTURES } from '../helpers/paths.js';
import { envWithHome, FORGOTTEN_HOME, temporaryHome } from '../helpers/testHome.js';

const run = promisify(execFile);


describe('the command line', () => {
  it('prints its version and help', async () => {
    const version = await run(process.execPath, [BIN, '--version']);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await run(process.execPath, [BIN, '--help']);
    for (const command of ['serve', 'doctor', 'daemon-status', 'daemon-stop', 'demo', 'audit']) expect(help.stdout).toContain(command);
  });

  it('doctor reports each known server: found or not, version, where from, how to install', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'doctor', '--json', '--quick']);
    const entries = JSON.parse(stdout) as { server: string; found: boolean; version?: string; source?: string; install?: string }[];
    expect(entries.find((e) => e.server === 'pyright')).toMatchObject({ found: true, source: 'bundled', version: 'pyright 1.1.414' });
    expect(entries.find((e) => e.server === 'typescript-language-server')).toMatchObject({ found: true, version: expect.stringContaining('typescript 5.9') });
    for (const e of entries) {
      if (e.found) expect(e.version).toBeTruthy();
      else expect(e.install).toMatch(/Install|install/);
    }
    const text = await run(process.execPath, [BIN, 'doctor', '--quick']);
    expect(text.stdout).toMatch(/✓ pyright/);
  });

  it.runIf(onPath('gopls'))('doctor finds a gopls that answers `gopls version` but not `--version` (Debian\'s)', async () => {
    const { stdout } = await run(process.execPath, [BIN, 'doctor', '--json', '--quick']);
    const gopls = (JSON.parse(stdout) as { server: string; found: boolean; version?: string }[]).find((e) => e.server === 'gopls');
    expect(gopls).toMatchObject({ found: true, version: expect.stringContaining('gopls') });
  });

  it('names an unknown command instead of treating it as an argument of serve', async () => {
    const failed = await run(process.execPath, [BIN, 'instal']).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain("unknown command 'instal'");
    expect(failed?.stderr).not.toContain('too many arguments');
  });

  it('says what is wrong and where help is, without printing the whole help after an error', async () => {
    for (const args of [['serve', '--bogus'], ['serve', '--http', '--no-auth', '--token', 'x']]) {
      const failed = await run(process.execPath, [BIN, ...args], { env: envWithHome(FORGOTTEN_HOME) }).then(
        () => undefined,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toMatch(/unknown option '--bogus'|--no-auth and --token contradict each other/);
      expect(failed?.stderr).toContain('--help');
      expect(failed?.stderr).not.toContain('Usage:');
    }
  });

  it('refuses a --root that is not a directory', async () => {
    const failed = await run(process.execPath, [BIN, 'serve', '--root', '/no/such/dir'], { env: envWithHome(FORGOTTEN_HOME, { AGENT_LSP_ROOT: '' }) }).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.stderr).toMatch(/--root \/no\/such\/dir \(or AGENT_LSP_ROOT\) is not a directory/);
  });
});

describe('the workspace comes from the MCP client\'s roots when start_lsp was not called', () => {
  it('resolves a relative path against the root the client lists', async () => {
    const root = join(FIXTURES, 'python-basic');
    const client = new Client({ name: 'roots-test', version: '0' }, { capabilities: { roots: { listChanged: false } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToUri(root), name: 'python-basic' }] }));
    const home = temporaryHome();
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--daemon', 'never'], stderr: 'ignore', env: envWithHome(home.home) });
    await client.connect(transport);
    try {
      const answer = await client.callTool({ name: 'find_references', arguments: { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' } }, undefined, { timeout: 120_000 });
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent).toMatchObject({ total: 6, complete: true });
      const folders = await client.callTool({ name: 'list_workspace_folders', arguments: {} });
      expect(folders.structuredContent).toMatchObject({ folders: [root] });
    } finally {
      await client.close();
      home.remove();
    }
  });
});

describe('tests never write into the user\'s state dir', () => {
  it('a CLI started without a temporary AGENT_LSP_HOME fails on its first write of state', async () => {
    expect(process.env['AGENT_LSP_HOME']).toBe(FORGOTTEN_HOME);
    const client = new Client({ name: 'forgetful-test', version: '0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'serve', '--daemon', 'never'], stderr: 'ignore', env: process.env as Record<string, string> });
    await client.connect(transport);
    try {
      const answer = await client.callTool({ name: 'start_lsp', arguments: { root_dir: join(FIXTURES, 'python-basic') } });
      expect(answer.isError).toBe(true);
      expect(JSON.stringify(answer.content)).toContain(FORGOTTEN_HOME);
    } finally {
      await client.close();
    }
  });
});
