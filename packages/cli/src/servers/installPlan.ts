import { join } from 'node:path';
import { installsIntoHome, installUnitName, readInstallManifest, type InstallManifest, type InstallRoute, type InstalledRouteKind } from '@agent-lsp/lsp';
import { binaryPath, manualCommand, missingToolAdvice, routeTool } from './routeCommands.js';
import type { ServerTarget } from './serverTargets.js';

type HomeRoute = Extract<InstallRoute, { kind: InstalledRouteKind }>;

/** What this machine offers the routes: asked once per command, injected in tests. */
export interface MachineProbe {
  /** The path of a tool on PATH (npm, go, cargo, apt-get, rustup), or undefined. */
  which(tool: string): string | undefined;
  /** python3 that can make a venv and install into it. */
  pythonWithVenv(): PythonForVenvs | undefined;
  isRoot: boolean;
  /** Whether `rustup which <binary>` finds an installed component. */
  rustupHas(binary: string): boolean;
}

export interface PythonForVenvs {
  path: string;
  /** Its pip installs into another interpreter (`pip --python`, pip 22.3+): venvs are made without pip. */
  outerPip: boolean;
}

/** One step of the plan: every target gets exactly one, and targets sharing an install share its step. */
export type PlanStep =
  | { action: 'bundled'; targets: ServerTarget[] }
  /** relink: an install in the servers home, whose links in bin/ are made again (a crash may have come between). */
  | { action: 'already'; targets: ServerTarget[]; where: string; relink?: { route: HomeRoute; unit: string; unitDir: string } }
  | { action: 'install'; targets: ServerTarget[]; route: HomeRoute; unit: string; unitDir: string; python?: PythonForVenvs; replaces?: InstallManifest }
  | { action: 'system'; targets: ServerTarget[]; route: Extract<InstallRoute, { kind: 'apt' | 'rustup' }> }
  | { action: 'unavailable'; targets: ServerTarget[]; reason: string; manual: string };

const samePackages = (m: InstallManifest, route: HomeRoute) =>
  m.kind === route.kind && JSON.stringify(m.packages.map((p) => [p.name, p.version])) === JSON.stringify(route.packages.map((p) => [p.name, p.version]));

/** Whether a recorded install is whole: its manifest matches the route and every executable is there. */
function completeInstall(unitDir: string, route: HomeRoute, exists: (path: string) => boolean): InstallManifest | 'other-version' | undefined {
  const manifest = readInstallManifest(unitDir);
  if (!manifest) return undefined;
  if (!samePackages(manifest, route) || !route.binaries.every((b) => exists(join(unitDir, binaryPath(route, b))))) return 'other-version';
  return manifest;
}

/**
 * Decides, without changing anything, what each target needs: nothing (bundled, already
 * installed), an install into the servers home, a system install (apt as root, rustup), or
 * nothing possible here (the reason, and the command a user runs by hand).
 */
export function planInstall(targets: readonly ServerTarget[], home: string, probe: MachineProbe, exists: (path: string) => boolean): PlanStep[] {
  const steps = new Map<string, PlanStep>();
  for (const target of targets) {
    const route = target.route;
    const key = installsIntoHome(route) ? installUnitName(route) : route.kind === 'apt' ? `apt:${route.packages[0]?.name}` : `${route.kind}:${target.server.id}`;
    const known = steps.get(key);
    if (known) {
      if (!known.targets.some((t) => t.server.id === target.server.id)) known.targets.push(target);
      continue;
    }
    steps.set(key, stepFor(target, route, home, probe, exists));
  }
  return [...steps.values()];
}

function stepFor(target: ServerTarget, route: InstallRoute, home: string, probe: MachineProbe, exists: (path: string) => boolean): PlanStep {
  const targets = [target];
  const manual = manualCommand(route);
  switch (route.kind) {
    case 'bundled':
      return { action: 'bundled', targets };
    case 'none':
      return { action: 'unavailable', targets, reason: 'no package registry this machine reaches has it', manual };
    case 'apt': {
      // A package without an executable of its own (a Perl module) is there when its server resolves.
      const onPath = route.binaries.length > 0 ? route.binaries.map((b) => probe.which(b)).find(Boolean) : target.server.resolve(home)?.command.join(' ');
      if (onPath) return { action: 'already', targets, where: onPath };
      if (!probe.which('apt-get')) return { action: 'unavailable', targets, reason: missingToolAdvice(route), manual };
      if (!probe.isRoot) return { action: 'unavailable', targets, reason: 'apt-get installs system-wide and needs root; agent-lsp is not running as root', manual };
      return { action: 'system', targets, route };
    }
    case 'rustup': {
      if (!probe.which('rustup')) {
        const onPath = route.binaries.map((b) => probe.which(b)).find(Boolean);
        return onPath ? { action: 'already', targets, where: onPath } : { action: 'unavailable', targets, reason: missingToolAdvice(route), manual };
      }
      return probe.rustupHas(route.component) ? { action: 'already', targets, where: `rustup component ${route.component}` } : { action: 'system', targets, route };
    }
    default: {
      const unit = installUnitName(route);
      const unitDir = join(home, unit);
      const recorded = completeInstall(unitDir, route, exists);
      if (recorded && recorded !== 'other-version') return { action: 'already', targets, where: unitDir, relink: { route, unit, unitDir } };
      const python = route.kind === 'pip' ? probe.pythonWithVenv() : undefined;
      const tool = route.kind === 'pip' ? python : probe.which(routeTool(route) ?? '');
      if (!tool) return { action: 'unavailable', targets, reason: missingToolAdvice(route), manual };
      const replaces = recorded === 'other-version' ? readInstallManifest(unitDir) : undefined;
      return { action: 'install', targets, route, unit, unitDir, ...(python ? { python } : {}), ...(replaces ? { replaces } : {}) };
    }
  }
}
