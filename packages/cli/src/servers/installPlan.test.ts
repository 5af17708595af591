import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, ServerRegistry, type InstallManifest } from '@agent-lsp/lsp';
import { planInstall, type MachineProbe, type PlanStep } from './installPlan.js';
import { resolveTargets } from './serverTargets.js';

const registry = new ServerRegistry();
const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-plan-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A machine with these tools, root or not. */
function machine(tools: string[], isRoot = false, rustupHas = false): MachineProbe {
  return {
    which: (t) => (tools.includes(t) ? `/usr/bin/${t}` : undefined),
    pythonWithVenv: () => (tools.includes('python3') ? { path: '/usr/bin/python3', outerPip: true } : undefined),
    isRoot,
    rustupHas: () => rustupHas,
  };
}

const plan = (names: string[], probe: MachineProbe, home = join(dir, 'empty')) => planInstall(resolveTargets(names, registry), home, probe, existsSync);
const only = (steps: PlanStep[]) => {
  expect(steps).toHaveLength(1);
  return steps[0] as PlanStep;
};

describe('naming what to install', () => {
  it('takes a language (its default server), LANG:SERVER, or a server id', () => {
    const ids = resolveTargets(['python', 'python:basedpyright', 'pylsp', 'php', 'bash', 'css', 'typescript:vtsls', 'ts:vtsls', 'typescript'], registry).map((t) => t.server.id);
    expect(ids).toEqual(['pyright', 'basedpyright', 'pylsp', 'intelephense', 'bash-language-server', 'vscode-css-language-server', 'vtsls', 'vtsls', 'typescript']);
  });

  it('brings the tools a server runs that are not its own package (ansible-core for ansible-language-server)', () => {
    const targets = resolveTargets(['ansible'], registry);
    expect(targets.map((t) => [t.server.id, t.route.kind])).toEqual([['ansible-language-server', 'npm'], ['ansible-language-server', 'pip']]);
    expect(plan(['ansible'], machine(['npm', 'python3'])).map((s) => s.action)).toEqual(['install', 'install']);
  });

  it('installs Vue with the TypeScript plugin, a TypeScript it can load, and the vtsls it answers beside', () => {
    const targets = resolveTargets(['vue'], registry);
    expect(targets.map((t) => [t.server.id, t.route.kind === 'npm' ? t.route.packages.map((p) => `${p.name}@${p.version}`) : t.route.kind])).toEqual([
      ['vue-language-server', ['@vue/language-server@3.3.11', '@vue/typescript-plugin@3.3.11', 'typescript@5.9.3']],
      ['vue-language-server', ['@vtsls/language-server@0.3.0']],
    ]);
  });

  it('refuses an unknown language with the languages it knows and how to add a server by config', () => {
    expect(() => resolveTargets(['go', 'cobol'], registry)).toThrow(/Unknown language or server "cobol"\. Languages agent-lsp knows a server for: .*\bgo\b.*\bpython\b.*--config/);
  });

  it('refuses a server the language does not have, naming those it has', () => {
    expect(() => resolveTargets(['python:gopls'], registry)).toThrow(/No server "gopls" for python: its servers are pyright, .*basedpyright/);
  });
});

describe('planning an install', () => {
  it('installs an npm server into the servers home when npm is there', () => {
    const step = only(plan(['php'], machine(['npm'])));
    expect(step).toMatchObject({ action: 'install', unit: 'npm-intelephense', unitDir: join(dir, 'empty', 'npm-intelephense') });
  });

  it('says which tool is missing and the command to run by hand when a route is unavailable', () => {
    expect(only(plan(['php'], machine([])))).toMatchObject({ action: 'unavailable', reason: expect.stringMatching(/npm is not on PATH/), manual: 'npm install -g intelephense@1.18.5' });
    expect(only(plan(['go'], machine(['npm'])))).toMatchObject({ action: 'unavailable', reason: expect.stringMatching(/go is not on PATH/), manual: expect.stringMatching(/^go install golang\.org\/x\/tools\/gopls@v0\.23\.0/) });
    expect(only(plan(['python:ruff'], machine(['npm'])))).toMatchObject({ action: 'unavailable', reason: expect.stringMatching(/python3-venv/), manual: expect.stringMatching(/ruff==0\.17\.5/) });
  });

  it('uses apt only as root, and says so otherwise', () => {
    expect(only(plan(['cpp:ccls'], machine(['apt-get'], false)))).toMatchObject({ action: 'unavailable', reason: expect.stringMatching(/needs root/), manual: 'sudo apt-get install -y ccls' });
    expect(only(plan(['cpp:ccls'], machine(['apt-get'], true)))).toMatchObject({ action: 'system', route: { kind: 'apt' } });
    expect(only(plan(['cpp:ccls'], machine(['apt-get', 'ccls'], false)))).toMatchObject({ action: 'already', where: '/usr/bin/ccls' });
  });

  it('adds rust-analyzer through rustup unless the component is there', () => {
    expect(only(plan(['rust'], machine(['rustup'])))).toMatchObject({ action: 'system', route: { kind: 'rustup', component: 'rust-analyzer' } });
    expect(only(plan(['rust'], machine(['rustup'], false, true)))).toMatchObject({ action: 'already' });
  });

  it('installs nothing for a bundled server, and nothing possible for one no registry has', () => {
    expect(only(plan(['python'], machine(['npm'])))).toMatchObject({ action: 'bundled' });
    expect(only(plan(['java'], machine(['npm', 'apt-get'], true)))).toMatchObject({ action: 'unavailable', manual: expect.stringMatching(/jdtls/) });
  });

  it('installs a package serving several servers once', () => {
    const step = only(plan(['css', 'html', 'json'], machine(['npm'])));
    expect(step.action).toBe('install');
    expect(step.targets.map((t) => t.server.id)).toEqual(['vscode-css-language-server', 'vscode-html-language-server', 'vscode-json-language-server']);
  });

  it('finds a complete install of the same versions already there, and replaces one of other versions', () => {
    const home = join(dir, 'home');
    const unitDir = join(home, 'npm-intelephense');
    mkdirSync(join(unitDir, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(unitDir, 'node_modules', '.bin', 'intelephense'), '');
    const manifest = (version: string): InstallManifest => ({
      schema: 1,
      unit: 'npm-intelephense',
      kind: 'npm',
      packages: [{ name: 'intelephense', version }],
      binaries: { intelephense: 'node_modules/.bin/intelephense' },
      installedVersions: {},
      installedAt: '',
    });
    // Without its manifest (an install that died before its end) it is no install.
    expect(only(plan(['php'], machine(['npm']), home))).toMatchObject({ action: 'install' });
    writeFileSync(join(unitDir, MANIFEST_FILE), JSON.stringify(manifest('1.18.5')));
    expect(only(plan(['php'], machine([]), home))).toMatchObject({ action: 'already', where: unitDir });
    writeFileSync(join(unitDir, MANIFEST_FILE), JSON.stringify(manifest('1.10.0')));
    expect(only(plan(['php'], machine(['npm']), home))).toMatchObject({ action: 'install', replaces: { packages: [{ version: '1.10.0' }] } });
  });
});
