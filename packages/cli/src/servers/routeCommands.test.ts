import { describe, expect, it } from 'vitest';
import { INSTALL_ROUTES, type InstallRoute } from '@agent-lsp/lsp';
import { installCommands, manualCommand } from './routeCommands.js';

type HomeRoute = Extract<InstallRoute, { kind: 'npm' | 'pip' | 'go' | 'cargo' }>;
const route = (id: string) => INSTALL_ROUTES[id] as HomeRoute;

describe('the commands of an install route', () => {
  it('installs npm packages pinned into their own prefix, never globally', () => {
    expect(installCommands(route('intelephense'), '/s/x')).toEqual([{ argv: ['npm', 'install', '--prefix', '/s/x', '--no-audit', '--no-fund', '--loglevel=error', 'intelephense@1.18.5'] }]);
  });

  it('installs pip packages pinned into a private venv, by the outer pip when it can', () => {
    const [venv, pip] = installCommands(route('ruff'), '/s/x', { path: '/usr/bin/python3', outerPip: true });
    expect(venv?.argv).toEqual(['/usr/bin/python3', '-m', 'venv', '--without-pip', '/s/x/venv']);
    expect(pip?.argv).toEqual(['/usr/bin/python3', '-m', 'pip', '--python', '/s/x/venv/bin/python', 'install', '--disable-pip-version-check', '--no-input', 'ruff==0.17.5']);
    expect(installCommands(route('ruff'), '/s/x', { path: 'python3', outerPip: false })[1]?.argv.slice(0, 4)).toEqual(['/s/x/venv/bin/python', '-m', 'pip', 'install']);
  });

  it('writes a launcher for a pip package that has a module but no script', () => {
    const steps = installCommands(route('robotframework-lsp'), '/s/x', { path: 'python3', outerPip: false });
    expect(steps[1]?.argv.slice(-2)).toEqual(['robotframework-lsp==1.13.0', 'robotframework==7.5.0']);
    const launcher = steps[2]?.argv ?? [];
    expect(launcher.slice(0, 2)).toEqual(['/s/x/venv/bin/python', '-c']);
    expect(launcher.slice(3)).toEqual(['/s/x/venv/bin/robotframework_ls', '#!/bin/sh\nexec "$(dirname "$(readlink -f "$0")")/python" -m robotframework_ls "$@"\n']);
    expect(steps).toHaveLength(3);
  });

  it('installs Go modules with GOBIN inside the install, and crates with cargo --root', () => {
    expect(installCommands(route('gopls'), '/s/x')).toEqual([{ argv: ['go', 'install', 'golang.org/x/tools/gopls@v0.23.0'], env: { GOBIN: '/s/x/bin' } }]);
    const crate: HomeRoute = { kind: 'cargo', packages: [{ name: 'taplo-cli', version: '0.10.0' }], binaries: ['taplo'], features: ['lsp'] };
    expect(installCommands(crate, '/s/x')).toEqual([{ argv: ['cargo', 'install', '--locked', '--root', '/s/x', '--features', 'lsp', 'taplo-cli@0.10.0'] }]);
    expect(manualCommand(crate)).toBe('cargo install --locked --features lsp taplo-cli@0.10.0');
  });
});
