import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { UserError } from '@agent-lsp/protocol';

/** The environment variable that sets the budget (the flag wins over it, it wins over the config file). */
export const MAX_BROKER_MEMORY_ENV = 'AGENT_LSP_MAX_BROKER_MEMORY';
/** The config file's key (beside `servers` and `runners`). */
export const MAX_BROKER_MEMORY_CONFIG_KEY = 'max_broker_memory';

/** How much resident memory all brokers of a home (with their language servers) may use together. */
export interface MemoryBudget {
  /** Infinity: no budget (`off`), nothing is ever evicted. */
  bytes: number;
  /** Where it came from: `--max-broker-memory`, the environment, the config file, or half the RAM. */
  source: 'flag' | 'env' | 'config' | 'default';
}

const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };
const SIZE = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?$/i;
const NO_BUDGET = /^(off|none|unlimited)$/i;

/**
 * A size as people write it: `4G`, `512M`, `1.5GiB`, `2048k`, `100MB` (binary units: 1G = 2^30
 * bytes), or a number of bytes. `off` (or `none`, `unlimited`) is no budget: Infinity. Throws an
 * Error that says what was expected.
 */
export function parseMemorySize(text: string): number {
  const trimmed = text.trim();
  if (NO_BUDGET.test(trimmed)) return Infinity;
  const m = SIZE.exec(trimmed);
  const bytes = m ? Math.floor(Number(m[1]) * (UNITS[(m[2] ?? '').toLowerCase()] ?? NaN)) : NaN;
  if (!Number.isFinite(bytes)) throw new Error(`"${text}" is not a size; write it like 4G, 512M or 1073741824 (bytes), or off for no budget`);
  if (bytes < 1) throw new Error(`"${text}" is less than one byte; give a positive size like 512M, or off for no budget`);
  return bytes;
}

/** The default: half the machine's RAM (os.totalmem()), shared by all brokers of one home. */
export function defaultBrokerMemoryBudget(total: number = totalmem()): number {
  return Math.floor(total / 2);
}

export interface BudgetSources {
  /** `--max-broker-memory`, when given. */
  flag?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** The JSON config file (`--config`, AGENT_LSP_CONFIG), when there is one. */
  configPath?: string | undefined;
}

/**
 * The budget from the first source that sets it: flag, then AGENT_LSP_MAX_BROKER_MEMORY, then the
 * config file's `max_broker_memory`, else half the RAM. An invalid value is an `invalid_argument`
 * error naming where it came from (the front refuses to start rather than guess).
 */
export function resolveBrokerMemoryBudget(sources: BudgetSources = {}): MemoryBudget {
  const env = sources.env ?? process.env;
  const envValue = env[MAX_BROKER_MEMORY_ENV];
  if (sources.flag !== undefined) return { bytes: parsed(sources.flag, '--max-broker-memory'), source: 'flag' };
  if (envValue !== undefined && envValue !== '') return { bytes: parsed(envValue, MAX_BROKER_MEMORY_ENV), source: 'env' };
  const configured = sources.configPath ? fromConfig(sources.configPath) : undefined;
  if (configured !== undefined) return { bytes: parsed(String(configured), `${MAX_BROKER_MEMORY_CONFIG_KEY} in ${sources.configPath}`), source: 'config' };
  return { bytes: defaultBrokerMemoryBudget(), source: 'default' };
}

function parsed(value: string, where: string): number {
  try {
    return parseMemorySize(value);
  } catch (err) {
    throw new UserError('invalid_argument', `${where}: ${(err as Error).message}.`);
  }
}

/** The config file's max_broker_memory (a size string or a number of bytes); undefined when it sets none. */
function fromConfig(path: string): string | number | undefined {
  let parsedFile: unknown;
  try {
    parsedFile = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UserError('invalid_argument', `The config file ${path} could not be read as JSON: ${(err as Error).message}`);
  }
  if (typeof parsedFile !== 'object' || parsedFile === null || Array.isArray(parsedFile)) return undefined;
  const value = (parsedFile as Record<string, unknown>)[MAX_BROKER_MEMORY_CONFIG_KEY];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') {
    throw new UserError('invalid_argument', `${MAX_BROKER_MEMORY_CONFIG_KEY} in ${path} must be a size like "4G" or a number of bytes.`);
  }
  return value;
}

/** `1.5 GiB`, `512 MiB`, `12 KiB`, `7 B`; `no budget` for Infinity. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return 'no budget';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
