import { UserError } from '@agent-lsp/protocol';
import { BUILTIN_SERVERS } from './builtinServers.js';
import { knownServerDefinition } from './knownServerDefinitions.js';
import { KNOWN_SERVERS } from './knownServers.js';
import type { ServerDefinition } from './serverProfile.js';

/**
 * Which server answers `language: python` (.py, .pyi): pyright (bundled, the default) or one a user
 * installed. Chosen by `--python-server`, else AGENT_LSP_PYTHON_SERVER, else pyright. The names are
 * the server ids of the profiles (builtinServers.ts, knownServers.ts), `jedi` short for
 * jedi-language-server; a broker finds the chosen profile by that id.
 */
export const PYTHON_SERVERS = ['pyright', 'basedpyright', 'pylsp', 'jedi-language-server', 'ruff', 'ty', 'pyrefly'] as const;
export type PythonServer = (typeof PYTHON_SERVERS)[number];
export const DEFAULT_PYTHON_SERVER: PythonServer = 'pyright';

const SHORT_NAMES: Readonly<Record<string, PythonServer>> = { jedi: 'jedi-language-server' };

/** A Python server name as given (case-insensitive); anything else is an error naming where it came from. */
export function parsePythonServer(value: string, origin: string): PythonServer {
  const name = value.trim().toLowerCase();
  const id = SHORT_NAMES[name] ?? name;
  if ((PYTHON_SERVERS as readonly string[]).includes(id)) return id as PythonServer;
  throw new UserError('invalid_argument', `${origin} is "${value}", which is not a Python server: use one of ${PYTHON_SERVERS.join(', ')} (jedi for jedi-language-server).`);
}

/** flag > env > pyright; an unknown value is an error. */
export function choosePythonServer(sources: { flag?: string | undefined; env?: string | undefined }): PythonServer {
  if (sources.flag !== undefined && sources.flag !== '') return parsePythonServer(sources.flag, '--python-server');
  if (sources.env !== undefined && sources.env !== '') return parsePythonServer(sources.env, 'AGENT_LSP_PYTHON_SERVER');
  return DEFAULT_PYTHON_SERVER;
}

/**
 * The profile to put before the built-in ones so .py files and `language: python` go to it;
 * none for pyright, which already has them.
 */
export function pythonServerFirst(choice: PythonServer): ServerDefinition[] {
  if (choice === DEFAULT_PYTHON_SERVER) return [];
  const builtin = BUILTIN_SERVERS.find((s) => s.id === choice);
  if (builtin) return [builtin];
  const known = KNOWN_SERVERS.find((k) => k.id === choice);
  if (!known) throw new Error(`no profile for the Python server ${choice}`);
  return [knownServerDefinition(known)];
}
