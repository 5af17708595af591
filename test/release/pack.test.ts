// `pnpm release:pack` makes one tarball whose `npm install -g` gives a working agent-lsp: this packs
// it, installs it into a temporary prefix (from the npm registry: pyright, typescript-language-server
// and typescript are real dependencies) and drives the installed command from a directory outside
// the repository, directly and through a broker. Without the registry it fails, loudly.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinSkills } from '@agent-lsp/skills';
import { homeProcesses } from '../helpers/brokers.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';
import { temporaryHome } from '../helpers/testHome.js';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const TEN_MINUTES = 600_000;

function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: options.cwd, env: options.env ?? process.env, timeout: TEN_MINUTES, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${command} ${args.join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

describe('the packed agent-lsp, installed with npm', () => {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-release-test-')));
  const prefix = join(scratch, 'prefix');
  const outside = join(scratch, 'elsewhere');
  const home = temporaryHome();
  const installedBin = join(prefix, 'bin', 'agent-lsp');
  const env = { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home.home };
  let tarball = '';

  beforeAll(async () => {
    const packed = await run(process.execPath, [join(REPO_ROOT, 'scripts', 'release-pack.mjs'), '--out', join(scratch, 'out')], { cwd: REPO_ROOT });
    tarball = packed.stdout.trim();
    // The registry is needed for the three server packages; an unreachable one fails here.
    await run('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: scratch });
    cpSync(join(FIXTURES, 'python-basic'), join(outside, 'python-basic'), { recursive: true });
    cpSync(join(REPO_ROOT, 'test', 'runners', 'fixtures', 'ts-error'), join(outside, 'ts-error'), { recursive: true });
  }, TEN_MINUTES);

  afterAll(async () => {
    if (existsSync(installedBin)) await run(process.execPath, [installedBin, 'daemon-stop', '--all', '--force'], { cwd: outside, env }).catch(() => undefined);
    home.remove();
    rmSync(scratch, { recursive: true, force: true });
  }, 120_000);

  it('is one tarball named by the version, holding the bundle, the skills and a manifest of real dependencies only', () => {
    expect(tarball).toBe(join(scratch, 'out', `agent-lsp-${VERSION}.tgz`));
    const installed = join(prefix, 'lib', 'node_modules', 'agent-lsp');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'agent-lsp', version: VERSION, type: 'module', bin: { 'agent-lsp': 'bin/agent-lsp' }, engines: { node: '>=20' } });
    const lsp = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', 'lsp', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest['dependencies']).toEqual({ pyright: lsp.dependencies['pyright'], 'typescript-language-server': lsp.dependencies['typescript-language-server'], typescript: lsp.dependencies['typescript'] });
    expect(manifest['optionalDependencies']).toEqual({ '@typescript/native-preview': lsp.dependencies['@typescript/native-preview'] });
    expect(manifest['devDependencies']).toBeUndefined();
    expect(readdirSync(join(installed, 'packages', 'skills', 'skills')).filter((f) => f.endsWith('.md')).length).toBe(builtinSkills().length);
    // Every docs/ page the installed README links to is installed with it.
    const links = [...readFileSync(join(installed, 'README.md'), 'utf8').matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1] as string);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => !existsSync(join(installed, l)))).toEqual([]);
    // Nothing of the monorepo's own packages or dev dependencies is installed beside it.
    expect(existsSync(join(installed, 'node_modules', '@agent-lsp'))).toBe(false);
    expect(existsSync(join(installed, 'node_modules', 'zod'))).toBe(false);
  });

  it('says its version and passes doctor --quick from a directory outside the repository', async () => {
    const version = await run(process.execPath, [installedBin, '--version'], { cwd: outside, env });
    expect(version.stdout.trim()).toBe(VERSION);
    const doctor = await run(process.execPath, [installedBin, 'doctor', '--quick'], { cwd: outside, env });
    // The servers come from the installed package's own node_modules, not the checkout's.
    expect(doctor.stdout).toContain(`✓ pyright`);
    expect(doctor.stdout).toContain(join(prefix, 'lib', 'node_modules', 'agent-lsp', 'node_modules', 'pyright'));
    expect(doctor.stdout).toContain(join(prefix, 'lib', 'node_modules', 'agent-lsp', 'node_modules', 'typescript-language-server'));
  });

  async function connect(daemon: 'never' | 'always'): Promise<Client> {
    const transport = new StdioClientTransport({ command: installedBin, args: ['serve', '--daemon', daemon], cwd: outside, env, stderr: 'ignore' });
    const client = new Client({ name: 'agent-lsp-release-test', version: '0' });
    await client.connect(transport);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = (await client.callTool({ name, arguments: args }, undefined, { timeout: 300_000, resetTimeoutOnProgress: true })) as CallToolResult;
    const text = answer.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    if (answer.isError) throw new Error(`${name} failed: ${text}`);
    return answer.structuredContent ?? {};
  }

  async function references(client: Client): Promise<Record<string, unknown>> {
    await call(client, 'start_lsp', { root_dir: join(outside, 'python-basic') });
    return call(client, 'find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' });
  }

  it('serves MCP over stdio: the tools, the skills as prompts, pyright\'s references and a tsc build', async () => {
    const client = await connect('never');
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['start_lsp', 'find_references', 'go_to_definition']));
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name).sort()).toEqual(builtinSkills().map((s) => s.name).sort());
      expect(await references(client)).toMatchObject({ total: 6, complete: true });
      // A project without its own tsc is type-checked with the installed package's typescript.
      await call(client, 'start_lsp', { root_dir: outside });
      const build = await call(client, 'run_build', { workspace_dir: 'ts-error' });
      expect(build).toMatchObject({ runner: 'tsc', passed: false, failures: [{ file: 'ts-error/src/total.ts', line: 5, column: 14, severity: 'error' }] });
    } finally {
      await client.close();
    }
  });

  it('answers through a broker spawned with the installed entry point, which daemon-stop --all ends', async () => {
    const client = await connect('always');
    try {
      expect(await references(client)).toMatchObject({ total: 6, complete: true });
      const brokers = homeProcesses(home.home).filter((p) => / daemon-broker /.test(p.cmd));
      expect(brokers.length).toBeGreaterThan(0);
      for (const b of brokers) expect(b.cmd).toContain(join(prefix, 'lib', 'node_modules', 'agent-lsp', 'bin', 'agent-lsp'));
    } finally {
      await client.close();
    }
    await run(process.execPath, [installedBin, 'daemon-stop', '--all'], { cwd: outside, env });
    const deadline = Date.now() + 30_000;
    while (homeProcesses(home.home).some((p) => / daemon-broker /.test(p.cmd)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(homeProcesses(home.home).filter((p) => / daemon-broker /.test(p.cmd))).toEqual([]);
  });
});
