import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/paths.js';
import { onPath } from '../helpers/onPath.js';
import { envWithHome, temporaryHome } from '../helpers/testHome.js';

const run = promisify(execFile);

/** Runs `agent-lsp …`; resolves with its exit code whatever it is. */
async function agentLsp(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env, timeout: 280_000, maxBuffer: 8 << 20 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const pythonVenv = onPath('python3') && spawnSync('python3', ['-c', 'import venv, ensurepip'], { stdio: 'ignore' }).status === 0;
const notRun = !onPath('npm') ? 'npm is not on PATH' : !pythonVenv ? 'python3 with venv is not on PATH' : undefined;

/** A small npm server (one bundled file) and a small pip one (one wheel), really installed. */
describe.skipIf(notRun !== undefined)(`agent-lsp servers install${notRun ? ` — not run (${notRun})` : ''}`, { timeout: 300_000 }, () => {
  const home = temporaryHome();
  const env = envWithHome(home.home);
  const servers = join(home.home, 'servers');
  afterAll(() => home.remove());

  it('refuses an unknown language, listing the known ones and how to add a server by config, and changes nothing', async () => {
    const r = await agentLsp(['servers', 'install', 'vim', 'cobol'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown language or server "cobol"\. Languages agent-lsp knows a server for: .*\bpython\b/);
    expect(r.stderr).toContain('--config');
    expect(existsSync(servers)).toBe(false);
  });

  it('installs an npm and a pip server into AGENT_LSP_HOME/servers, with progress on stderr', async () => {
    const r = await agentLsp(['servers', 'install', 'vim', 'python:ruff'], env);
    expect(r.stderr).toMatch(/servers: installing vim-language-server \(npm: vim-language-server 2\.3\.1\)/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^vim-language-server: installed/m);
    expect(r.stdout).toMatch(/^ruff: installed/m);
    const ruff = spawnSync(join(servers, 'bin', 'ruff'), ['--version'], { encoding: 'utf8' });
    expect(ruff.stdout.trim()).toBe('ruff 0.17.5');
    expect(statSync(join(servers, 'bin', 'vim-language-server')).isFile()).toBe(true);
    expect(readdirSync(join(servers, '.staging'))).toEqual([]);
  });

  it('does nothing the second time and says it is already installed', async () => {
    const before = statSync(join(servers, 'pip-ruff')).ino;
    const r = await agentLsp(['servers', 'install', 'vim', 'python:ruff'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^vim-language-server: already installed/m);
    expect(r.stdout).toMatch(/^ruff: already installed/m);
    expect(r.stderr).not.toContain('installing');
    expect(statSync(join(servers, 'pip-ruff')).ino).toBe(before);
  });

  it('finds what it installed: servers list and doctor say route, version and where', async () => {
    const list = await agentLsp(['servers', 'list', '--json'], env);
    const rows = JSON.parse(list.stdout) as { language: string; server: string; installed: boolean; source?: string; details?: Record<string, string> }[];
    expect(rows.find((r) => r.server === 'ruff')).toMatchObject({ language: 'python', installed: true, source: 'installed', details: { installed: `pip ruff 0.17.5 in ${join(servers, 'pip-ruff')}` } });
    expect(rows.find((r) => r.server === 'vim-language-server')).toMatchObject({ installed: true, source: 'installed' });
    const doctor = await agentLsp(['doctor', '--quick', '--json'], env);
    const entries = JSON.parse(doctor.stdout) as { id: string; found: boolean; source?: string; version?: string; command?: string[]; details?: Record<string, string> }[];
    expect(entries.find((e) => e.id === 'ruff')).toMatchObject({ found: true, source: 'installed', version: 'ruff 0.17.5', command: [join(servers, 'bin', 'ruff'), 'server'] });
  });

  it('leaves nothing of an install that fails midway, and says what to run by hand', async () => {
    // Registries on a closed loopback port: npm and pip fail after they started.
    const broken = { ...env, npm_config_registry: 'http://127.0.0.1:9/', npm_config_fetch_retries: '0', PIP_INDEX_URL: 'http://127.0.0.1:9/simple', PIP_RETRIES: '0' };
    const r = await agentLsp(['servers', 'install', 'yaml', 'python:ty'], broken);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/✗ yaml-language-server: install failed .*nothing of it was kept/);
    expect(r.stderr).toContain('Run by hand: npm install -g yaml-language-server@2.0.0');
    expect(r.stderr).toContain('Run by hand: pipx install ty==0.0.104');
    expect(readdirSync(servers).sort()).toEqual(['.staging', 'bin', 'npm-vim-language-server', 'pip-ruff']);
    expect(readdirSync(join(servers, '.staging'))).toEqual([]);
    expect(readdirSync(join(servers, 'bin')).sort()).toEqual(['ruff', 'vim-language-server']);
  });
});
