import { readFileSync } from 'node:fs';
import { UserError } from '@agent-lsp/protocol';

/**
 * Which server answers `language: typescript` (and javascript, tsx, jsx): typescript-language-server
 * over tsserver (`tsls`, the default) or TypeScript 7's native server (`tsgo`). Chosen by
 * `--ts-server`, else AGENT_LSP_TS_SERVER, else the config file's `typescript_server`, else tsls.
 */
export const TS_SERVERS = ['tsls', 'tsgo'] as const;
export type TsServer = (typeof TS_SERVERS)[number];

export const DEFAULT_TS_SERVER: TsServer = 'tsls';
/** The server ids of the two profiles (builtinServers.ts): distinct ids give distinct brokers. */
export const TSLS_SERVER_ID = 'typescript';
export const TSGO_SERVER_ID = 'typescript-go';

export const TS_SERVER_IDS: Readonly<Record<TsServer, string>> = { tsls: TSLS_SERVER_ID, tsgo: TSGO_SERVER_ID };

/** A TypeScript server name as given (case-insensitive); anything else is an error naming where it came from. */
export function parseTsServer(value: string, origin: string): TsServer {
  const name = value.trim().toLowerCase();
  if ((TS_SERVERS as readonly string[]).includes(name)) return name as TsServer;
  throw new UserError(
    'invalid_argument',
    `${origin} is "${value}", which is not a TypeScript server: use tsls (typescript-language-server, the default) or tsgo (typescript-go, TypeScript 7's native server).`,
  );
}

/** The config file's `typescript_server`, if it sets one. */
export function tsServerFromConfig(path: string): TsServer | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UserError('invalid_argument', `Server config ${path} is invalid: ${(err as Error).message}.`);
  }
  const value = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['typescript_server'] : undefined;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new UserError('invalid_argument', `Server config ${path} is invalid: typescript_server must be "tsls" or "tsgo".`);
  return parseTsServer(value, `typescript_server in ${path}`);
}

export interface TsServerSources {
  /** `--ts-server`. */
  flag?: string | undefined;
  /** AGENT_LSP_TS_SERVER. */
  env?: string | undefined;
  /** The config file (`--config` / AGENT_LSP_CONFIG), absolute. */
  configPath?: string | undefined;
}

/** flag > env > config > default; an unknown value anywhere it is taken from is an error. */
export function chooseTsServer(sources: TsServerSources): TsServer {
  if (sources.flag !== undefined && sources.flag !== '') return parseTsServer(sources.flag, '--ts-server');
  if (sources.env !== undefined && sources.env !== '') return parseTsServer(sources.env, 'AGENT_LSP_TS_SERVER');
  return (sources.configPath ? tsServerFromConfig(sources.configPath) : undefined) ?? DEFAULT_TS_SERVER;
}

/**
 * A broker serves the server id it was spawned for (`daemon-broker --language <id>`), whatever its
 * environment says: a tsls broker must never load tsgo, nor the other way round.
 */
export function tsServerOfServerId(id: string): TsServer | undefined {
  if (id === TSGO_SERVER_ID) return 'tsgo';
  if (id === TSLS_SERVER_ID) return 'tsls';
  return undefined;
}
