import { readFileSync } from 'node:fs';
import { UserError } from '@agent-lsp/protocol';
import { findExecutable } from './executables.js';
import type { ServerDefinition } from './serverProfile.js';

/**
 * Custom servers come from a JSON file:
 * `{ "servers": [ { "language_id": "lua", "extensions": [".lua"], "command": ["lua-language-server"],
 *    "settings": {}, "initialization_options": {}, "root_markers": [".luarc.json"] } ] }`.
 */
interface CustomServerEntry {
  language_id: string;
  extensions: string[];
  command: string[];
  settings?: Record<string, unknown>;
  initialization_options?: Record<string, unknown>;
  root_markers?: string[];
}

function invalid(path: string, why: string): UserError {
  return new UserError('invalid_argument', `Server config ${path} is invalid: ${why}.`);
}

export function loadCustomServers(path: string): ServerDefinition[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw invalid(path, (err as Error).message);
  }
  const servers = (parsed as { servers?: unknown }).servers;
  if (!Array.isArray(servers)) throw invalid(path, 'expected an object with a "servers" array');
  return servers.map((raw, i) => toDefinition(path, raw as CustomServerEntry, i));
}

function toDefinition(path: string, entry: CustomServerEntry, index: number): ServerDefinition {
  const where = `servers[${index}]`;
  if (typeof entry.language_id !== 'string' || !entry.language_id) throw invalid(path, `${where}.language_id must be a non-empty string`);
  if (!Array.isArray(entry.extensions) || entry.extensions.some((e) => typeof e !== 'string' || !e.startsWith('.'))) {
    throw invalid(path, `${where}.extensions must be a list like [".lua"]`);
  }
  if (!Array.isArray(entry.command) || entry.command.length === 0 || entry.command.some((c) => typeof c !== 'string')) {
    throw invalid(path, `${where}.command must be a non-empty list of strings (argv, no shell)`);
  }
  const [binary, ...args] = entry.command as [string, ...string[]];
  return {
    id: entry.language_id,
    displayName: binary,
    languageIds: [entry.language_id],
    extensions: Object.fromEntries(entry.extensions.map((e) => [e.toLowerCase(), entry.language_id])),
    rootMarkers: entry.root_markers ?? [],
    readiness: 'canary',
    installHint: `Install ${binary} and make sure it is on PATH (configured in ${path}).`,
    resolve() {
      const resolved = findExecutable(binary);
      if (!resolved) return undefined;
      return {
        command: [resolved, ...args],
        source: 'config',
        settings: entry.settings ?? {},
        ...(entry.initialization_options ? { initializationOptions: entry.initialization_options } : {}),
        profileFingerprint: `${entry.language_id}|${JSON.stringify(entry.command)}|${JSON.stringify(entry.settings ?? {})}`,
        details: { config: path },
      };
    },
  };
}
