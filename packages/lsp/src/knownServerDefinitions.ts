import { spawnSync } from 'node:child_process';
import { findProjectExecutable } from './projectExecutables.js';
import { INSTALL_ROUTES } from './installRoutes.js';
import { KNOWN_SERVERS, TYPESCRIPT_LIB, type KnownServer } from './knownServers.js';
import { typescriptLibDir } from './typescriptLib.js';
import type { ResolvedServer, ServerDefinition } from './serverProfile.js';

/** How to get a known server: `agent-lsp servers install` where it has a route, else its own way. */
function installHintOf(known: KnownServer): string {
  const route = INSTALL_ROUTES[known.id];
  const own = `\`${known.installHint}\`, and make sure \`${known.command}\` is on PATH (or in the project's node_modules/.bin or virtualenv)`;
  if (!route || route.kind === 'none' || route.kind === 'bundled') return `Install ${known.id}: ${own}.`;
  return `Install ${known.id}: \`agent-lsp servers install ${known.languageIds[0] ?? ''}:${known.id}\`, or ${own}.`;
}

/** A known server as a profile: found in the project or on PATH, answered by a canary until ready. */
export function knownServerDefinition(known: KnownServer): ServerDefinition {
  return {
    id: known.id,
    displayName: known.command === known.id ? known.id : `${known.id} (${known.command})`,
    languageIds: known.languageIds,
    extensions: known.extensions,
    rootMarkers: known.rootMarkers,
    projectOnly: true,
    readiness: known.readiness ?? 'canary',
    installHint: installHintOf(known),
    ...(known.versionArgs ? { versionArgs: known.versionArgs } : {}),
    ...(known.uncancellable ? { uncancellable: known.uncancellable } : {}),
    ...(known.environmentDirs ? { environmentDirs: known.environmentDirs } : {}),
    ...(known.exactDiagnostics ? { exactDiagnostics: known.exactDiagnostics } : {}),
    ...(known.refreshAfterChange ? { refreshAfterChange: known.refreshAfterChange } : {}),
    ...(known.formatDocumentByRange ? { formatDocumentByRange: known.formatDocumentByRange } : {}),
    ...(known.analysedWhenPublished ? { analysedWhenPublished: true } : {}),
    ...(known.indexesOpenedDirectories ? { indexesOpenedDirectories: true } : {}),
    ...(known.claimsUnder ? { claimsUnder: known.claimsUnder } : {}),
    ...(known.settingsPushedAfterInitialized ? { settingsPushedAfterInitialized: true } : {}),
    resolve(rootDir): ResolvedServer | undefined {
      const found = findProjectExecutable(known.command, rootDir);
      if (!found) return undefined;
      if (known.installedCheck && spawnSync(found.path, known.installedCheck, { stdio: 'ignore', timeout: 10_000 }).status !== 0) return undefined;
      const initializationOptions = known.initializationOptions ? withTypescriptLib(known.initializationOptions, rootDir) : undefined;
      return {
        command: [found.path, ...known.args],
        source: found.where,
        settings: { ...known.settings },
        ...(initializationOptions ? { initializationOptions } : {}),
        // The TypeScript lib a server is given changes its answers: part of the profile.
        profileFingerprint: [known.id, found.path, ...(initializationOptions ? [JSON.stringify(initializationOptions)] : [])].join('|'),
        details: found.details,
      };
    },
  };
}

/** `options` with every TYPESCRIPT_LIB string replaced by the TypeScript lib directory for `rootDir`. */
function withTypescriptLib(options: Readonly<Record<string, unknown>>, rootDir: string): Record<string, unknown> {
  const fill = (value: unknown): unknown => {
    if (value === TYPESCRIPT_LIB) return typescriptLibDir(rootDir) ?? value;
    if (Array.isArray(value)) return value.map(fill);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    return value;
  };
  return fill(options) as Record<string, unknown>;
}

/** The table's servers that are not built-in profiles, in the order they take an extension. */
export const KNOWN_SERVER_DEFINITIONS: readonly ServerDefinition[] = KNOWN_SERVERS.filter((k) => !k.builtin)
  .map((k, index) => ({ k, index }))
  .sort((a, b) => (a.k.priority ?? 0) - (b.k.priority ?? 0) || a.index - b.index)
  .map(({ k }) => knownServerDefinition(k));

/** The table entry for a command or id (`pylsp`, `typescript-language-server`), for the original's `lang:command` forms. */
export function knownServerFor(commandOrId: string): KnownServer | undefined {
  const base = commandOrId.split('/').pop() ?? commandOrId;
  return KNOWN_SERVERS.find((k) => k.command === base || k.id === base);
}
