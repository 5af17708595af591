import { readFileSync } from 'node:fs';
import { UserError } from '@agent-lsp/protocol';

/** The languages a runner is detected for; TypeScript covers JavaScript, `cpp` covers C. */
export const RUNNER_LANGUAGES = ['python', 'typescript', 'go', 'cpp'] as const;
export type RunnerLanguage = (typeof RUNNER_LANGUAGES)[number];

/** A command configured for a language, replacing detection. */
export interface ConfiguredRunner {
  build?: string[];
  test?: string[];
  /** The flag that selects tests by name, placed before test_name (`-k` for pytest, `-run` for go). */
  test_name_flag?: string;
}

export type RunnerConfig = Partial<Record<RunnerLanguage, ConfiguredRunner>>;

/**
 * The `runners` section of the config file (`--config`, AGENT_LSP_CONFIG), beside `servers`:
 * `{ "runners": { "python": { "test": ["python3", "-m", "pytest", "-x"], "test_name_flag": "-k" },
 *    "typescript": { "build": ["npx", "tsc", "-b"] } } }`. Commands are argv arrays (no shell), run
 * in the workspace directory; `path` is appended to them, then `test_name_flag test_name`.
 */
export function loadRunnerConfig(path: string): RunnerConfig {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw invalid(path, (err as Error).message);
  }
  const section = isObject(parsed) ? parsed['runners'] : undefined;
  if (section === undefined) return {};
  if (!isObject(section)) throw invalid(path, '"runners" must be an object keyed by language');
  const config: RunnerConfig = {};
  for (const [language, raw] of Object.entries(section)) {
    if (!(RUNNER_LANGUAGES as readonly string[]).includes(language)) throw invalid(path, `runners.${language}: unknown language (known: ${RUNNER_LANGUAGES.join(', ')})`);
    if (!isObject(raw)) throw invalid(path, `runners.${language} must be an object with build and/or test`);
    const entry: ConfiguredRunner = {};
    for (const kind of ['build', 'test'] as const) {
      const argv = raw[kind];
      if (argv === undefined) continue;
      if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== 'string' || a === '')) {
        throw invalid(path, `runners.${language}.${kind} must be a non-empty list of strings (argv, no shell)`);
      }
      entry[kind] = argv as string[];
    }
    const flag = raw['test_name_flag'];
    if (flag !== undefined) {
      if (typeof flag !== 'string' || flag === '') throw invalid(path, `runners.${language}.test_name_flag must be a string like "-k"`);
      entry.test_name_flag = flag;
    }
    config[language as RunnerLanguage] = entry;
  }
  return config;
}

function invalid(path: string, why: string): UserError {
  return new UserError('invalid_argument', `Config ${path} is invalid: ${why}.`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
