import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MANIFEST_FILE, serversHome } from './installedServers.js';
import { findProjectExecutable } from './projectExecutables.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-installed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fakeExecutable(path: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
}

describe('servers installed by `agent-lsp servers install`', () => {
  const env = { AGENT_LSP_HOME: join(dir, 'home'), PATH: join(dir, 'path') };
  const servers = serversHome(env);
  const root = join(dir, 'project');
  mkdirSync(root, { recursive: true });
  fakeExecutable(join(dir, 'path', 'yaml-language-server'));
  fakeExecutable(join(dir, 'path', 'intelephense'));
  fakeExecutable(join(servers, 'npm-yaml-language-server', 'node_modules', '.bin', 'yaml-language-server'));
  mkdirSync(join(servers, 'bin'), { recursive: true });
  symlinkSync('../npm-yaml-language-server/node_modules/.bin/yaml-language-server', join(servers, 'bin', 'yaml-language-server'));
  const manifest = { schema: 1, unit: 'npm-yaml-language-server', kind: 'npm', packages: [{ name: 'yaml-language-server', version: '2.0.0' }], binaries: {}, installedVersions: { 'yaml-language-server': '2.0.0' }, installedAt: '' };

  it('lives in AGENT_LSP_HOME/servers, else the XDG state dir', () => {
    expect(servers).toBe(join(dir, 'home', 'servers'));
    expect(serversHome({ XDG_STATE_HOME: '/state' })).toBe('/state/agent-lsp/servers');
  });

  it('is not found while its install has no manifest (an install that did not finish)', () => {
    expect(findProjectExecutable('yaml-language-server', root, env)).toMatchObject({ where: 'PATH', path: join(dir, 'path', 'yaml-language-server') });
  });

  it('is found before PATH, with its route, version and directory', () => {
    writeFileSync(join(servers, 'npm-yaml-language-server', MANIFEST_FILE), JSON.stringify(manifest));
    expect(findProjectExecutable('yaml-language-server', root, env)).toEqual({
      where: 'installed',
      path: join(servers, 'bin', 'yaml-language-server'),
      details: { installed: `npm yaml-language-server 2.0.0 in ${join(servers, 'npm-yaml-language-server')}` },
    });
    expect(findProjectExecutable('intelephense', root, env)).toMatchObject({ where: 'PATH' });
  });

  it("comes after the project's own", () => {
    fakeExecutable(join(root, 'node_modules', '.bin', 'yaml-language-server'));
    expect(findProjectExecutable('yaml-language-server', root, env)).toMatchObject({ where: 'project' });
  });
});
