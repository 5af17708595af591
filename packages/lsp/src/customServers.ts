import { readFileSync } from 'node:fs';
import { UserError } from '@agent-lsp/protocol';
import { findServerExecutable } from './installedServers.js';
import { KNOWN_SERVERS } from './knownServers.js';
import { READINESS_STRATEGIES, type ReadinessStrategy, type ServerDefinition } from './serverProfile.js';

/** The language id the known servers give an extension (`.go` → go, `.sh` → shellscript), else the extension's name. */
function languageOfExtension(ext: string): string {
  for (const known of KNOWN_SERVERS) {
    const id = known.extensions[ext];
    if (id) return id;
  }
  return ext.slice(1);
}

/**
 * Custom servers come from a JSON file:
 * `{ "servers": [ { "language_id": "lua", "extensions": [".lua"], "command": ["lua-language-server"],
 *    "settings": {}, "initialization_options": {}, "root_markers": [".luarc.json"], "readiness": "progress" } ] }`.
 * The original agent-lsp's files are the same shape with extensions written without the dot
 * (`["go"]`) and language_id optional (then the language of the first extension).
 */
interface CustomServerEntry {
  language_id?: string;
  extensions: string[];
  command: string[];
  settings?: Record<string, unknown>;
  initialization_options?: Record<string, unknown>;
  root_markers?: string[];
  /** How to tell the server has indexed the workspace (default canary): e.g. `progress` for a server that reports $/progress, `pyright` for a wrapped pyright. */
  readiness?: ReadinessStrategy;
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
  const servers = isPlainObject(parsed) ? parsed['servers'] : undefined;
  // A file may configure only build/test runners (its `runners` section, read by the tools), the
  // brokers' memory budget (`max_broker_memory`, read by the broker package) or the TypeScript
  // server (`typescript_server`, typescriptServerChoice.ts).
  if (servers === undefined && isPlainObject(parsed) && ('runners' in parsed || 'max_broker_memory' in parsed || 'typescript_server' in parsed)) return [];
  if (!Array.isArray(servers)) throw invalid(path, 'expected an object with a "servers" array');
  return servers.map((raw, i) => toDefinition(path, raw, i));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toDefinition(path: string, raw: unknown, index: number): ServerDefinition {
  const where = `servers[${index}]`;
  if (!isPlainObject(raw)) throw invalid(path, `${where} must be an object with language_id, extensions and command`);
  const entry = raw as unknown as CustomServerEntry;
  if (!Array.isArray(entry.extensions) || entry.extensions.length === 0 || entry.extensions.some((e) => typeof e !== 'string' || !/^\.?[A-Za-z0-9_+-]+$/.test(e))) {
    throw invalid(path, `${where}.extensions must be a list like [".lua"]`);
  }
  const extensions = entry.extensions.map((e) => (e.startsWith('.') ? e : `.${e}`).toLowerCase());
  if (entry.language_id === undefined) entry.language_id = languageOfExtension(extensions[0] as string);
  if (typeof entry.language_id !== 'string' || !entry.language_id) throw invalid(path, `${where}.language_id must be a non-empty string`);
  const languageId = entry.language_id;
  if (!Array.isArray(entry.command) || entry.command.length === 0 || entry.command.some((c) => typeof c !== 'string')) {
    throw invalid(path, `${where}.command must be a non-empty list of strings (argv, no shell)`);
  }
  if (entry.root_markers !== undefined && (!Array.isArray(entry.root_markers) || entry.root_markers.some((m) => typeof m !== 'string'))) {
    throw invalid(path, `${where}.root_markers must be a list of file names like [".luarc.json"]`);
  }
  if (entry.readiness !== undefined && !(READINESS_STRATEGIES as readonly unknown[]).includes(entry.readiness)) {
    throw invalid(path, `${where}.readiness must be one of ${READINESS_STRATEGIES.join(', ')}`);
  }
  for (const field of ['settings', 'initialization_options'] as const) {
    if (entry[field] !== undefined && !isPlainObject(entry[field])) throw invalid(path, `${where}.${field} must be a JSON object`);
  }
  const [binary, ...args] = entry.command as [string, ...string[]];
  return {
    id: languageId,
    displayName: binary,
    languageIds: [languageId],
    extensions: Object.fromEntries(extensions.map((e) => [e, languageId])),
    rootMarkers: entry.root_markers ?? [],
    readiness: entry.readiness ?? 'canary',
    installHint: `Install ${binary} and make sure it is on PATH (configured in ${path}).`,
    resolve() {
      const resolved = findServerExecutable(binary);
      if (!resolved) return undefined;
      return {
        command: [resolved.path, ...args],
        source: 'config',
        settings: entry.settings ?? {},
        ...(entry.initialization_options ? { initializationOptions: entry.initialization_options } : {}),
        profileFingerprint: `${languageId}|${JSON.stringify(entry.command)}|${JSON.stringify(entry.settings ?? {})}`,
        details: { config: path, ...resolved.details },
      };
    },
  };
}
