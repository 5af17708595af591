import { join } from 'node:path';
import type { InstallPackage, InstallRoute, InstalledRouteKind } from '@agent-lsp/lsp';

type HomeRoute = Extract<InstallRoute, { kind: InstalledRouteKind }>;

/** One command of an install: argv (never a shell string) and what it adds to the environment. */
export interface InstallCommand {
  argv: string[];
  env?: Record<string, string>;
}

const pipSpec = (p: InstallPackage) => `${p.name}==${p.version}`;
const atSpec = (p: InstallPackage) => `${p.name}@${p.version}`;

/**
 * The commands that install a route into `dir` (a staging directory, renamed into place after):
 * npm into its own prefix, pip into a private venv, go with GOBIN, cargo with --root. `python`
 * is the interpreter the venv is made from, and whether its pip installs into the venv.
 */
export function installCommands(route: HomeRoute, dir: string, python: { path: string; outerPip: boolean } = { path: 'python3', outerPip: false }): InstallCommand[] {
  switch (route.kind) {
    case 'npm':
      return [{ argv: ['npm', 'install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', ...route.packages.map(atSpec)] }];
    case 'pip': {
      const venvPython = join(dir, 'venv', 'bin', 'python');
      // PIP_USER=0: a user's `pip config set global.user true` would refuse to install into a venv.
      const pip = ['install', '--disable-pip-version-check', '--no-input', ...route.packages.map(pipSpec)];
      const steps = python.outerPip
        ? [{ argv: [python.path, '-m', 'venv', '--without-pip', join(dir, 'venv')] }, { argv: [python.path, '-m', 'pip', '--python', venvPython, ...pip], env: { PIP_USER: '0' } }]
        : [{ argv: [python.path, '-m', 'venv', join(dir, 'venv')] }, { argv: [venvPython, '-m', 'pip', ...pip], env: { PIP_USER: '0' } }];
      return [...steps, ...Object.entries(route.launchers ?? {}).map(([binary, module]) => launcherCommand(join(dir, 'venv', 'bin', binary), module))];
    }
    case 'go':
      return route.packages.map((p) => ({ argv: ['go', 'install', atSpec(p)], env: { GOBIN: join(dir, 'bin') } }));
    case 'cargo':
      return route.packages.map((p) => ({
        argv: ['cargo', 'install', '--locked', '--root', dir, ...(route.features?.length ? ['--features', route.features.join(',')] : []), atSpec(p)],
      }));
  }
}

/**
 * Writes `bin/<binary>` into a venv for a package that has a module but no console script
 * (robotframework-lsp): `python -m module`. The launcher finds its venv's python through its own
 * resolved path, since the staged directory is renamed into place and linked from the servers' bin.
 */
function launcherCommand(path: string, module: string): InstallCommand {
  const script = `#!/bin/sh\nexec "$(dirname "$(readlink -f "$0")")/python" -m ${module} "$@"\n`;
  const write = `import os, sys\nwith open(sys.argv[1], 'w') as f: f.write(sys.argv[2])\nos.chmod(sys.argv[1], 0o755)`;
  return { argv: [join(path, '..', 'python'), '-c', write, path, script] };
}

/** Where a route's executable lies inside its install directory. */
export function binaryPath(route: HomeRoute, binary: string): string {
  switch (route.kind) {
    case 'npm':
      return join('node_modules', '.bin', binary);
    case 'pip':
      return join('venv', 'bin', binary);
    case 'go':
    case 'cargo':
      return join('bin', binary);
  }
}

/** The tool a route needs on this machine. */
export function routeTool(route: InstallRoute): string | undefined {
  switch (route.kind) {
    case 'npm':
      return 'npm';
    case 'pip':
      return 'python3';
    case 'go':
      return 'go';
    case 'cargo':
      return 'cargo';
    case 'apt':
      return 'apt-get';
    case 'rustup':
      return 'rustup';
    default:
      return undefined;
  }
}

/** What a user runs by hand to get the same server the usual way (global or user-wide), with the exact pins. */
export function manualCommand(route: InstallRoute): string {
  switch (route.kind) {
    case 'npm':
      return `npm install -g ${route.packages.map(atSpec).join(' ')}`;
    case 'pip':
      return `pipx install ${route.packages.map(pipSpec).join(' ')} (or python3 -m pip install --user ${route.packages.map(pipSpec).join(' ')})`;
    case 'go':
      return route.packages.map((p) => `go install ${atSpec(p)}`).join(' && ') + ' (then put $(go env GOPATH)/bin on PATH)';
    case 'cargo':
      return route.packages.map((p) => `cargo install --locked ${route.features?.length ? `--features ${route.features.join(',')} ` : ''}${atSpec(p)}`).join(' && ');
    case 'apt':
      return `sudo apt-get install -y ${route.packages.map((p) => p.name).join(' ')}`;
    case 'rustup':
      return `rustup component add ${route.component}`;
    case 'bundled':
      return 'reinstall agent-lsp (it comes with it)';
    case 'none':
      return route.manual;
  }
}

/** Why a route's tool is missing, and how to get it. */
export function missingToolAdvice(route: InstallRoute): string {
  switch (route.kind) {
    case 'npm':
      return 'npm is not on PATH (it comes with Node.js)';
    case 'pip':
      return 'python3 with its venv module is not on PATH (Debian/Ubuntu: apt-get install python3-venv)';
    case 'go':
      return 'go is not on PATH (Debian/Ubuntu: apt-get install golang-go, or go.dev/dl)';
    case 'cargo':
      return 'cargo is not on PATH (rustup.rs)';
    case 'apt':
      return 'apt-get is not on this machine (not Debian/Ubuntu): install it with your system\'s package manager';
    case 'rustup':
      return 'rustup is not on PATH (rustup.rs); a rust-analyzer binary can also be downloaded from github.com/rust-lang/rust-analyzer/releases';
    default:
      return 'no route';
  }
}
