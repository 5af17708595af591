import { existsSync, readdirSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { isWithin, UserError } from '@agent-lsp/protocol';
import { RUNNER_LANGUAGES, type RunnerLanguage } from './runnerConfig.js';

/** What each language's names look like in a `language` argument. */
const LANGUAGE_ALIASES: Readonly<Record<string, RunnerLanguage>> = {
  python: 'python',
  py: 'python',
  typescript: 'typescript',
  ts: 'typescript',
  typescriptreact: 'typescript',
  javascript: 'typescript',
  js: 'typescript',
  javascriptreact: 'typescript',
  go: 'go',
  golang: 'go',
  c: 'cpp',
  cpp: 'cpp',
  'c++': 'cpp',
};

/** Files that make a directory a project of a language, in the order they are tried. */
export const PROJECT_MARKERS: Readonly<Record<RunnerLanguage, readonly string[]>> = {
  go: ['go.mod'],
  typescript: ['package.json', 'tsconfig.json'],
  python: ['pyproject.toml', 'setup.py', 'setup.cfg', 'pytest.ini', 'tox.ini', 'requirements.txt'],
  cpp: ['CMakeLists.txt', 'Makefile', 'makefile', 'GNUmakefile'],
};

const EXTENSIONS: Readonly<Record<string, RunnerLanguage>> = {
  '.py': 'python',
  '.ts': 'typescript',
  '.tsx': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.js': 'typescript',
  '.jsx': 'typescript',
  '.mjs': 'typescript',
  '.cjs': 'typescript',
  '.go': 'go',
  '.c': 'cpp',
  '.h': 'cpp',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.cxx': 'cpp',
  '.hpp': 'cpp',
};

export function normalizeLanguage(input: string): RunnerLanguage {
  const language = LANGUAGE_ALIASES[input.trim().toLowerCase()];
  if (!language) throw new UserError('invalid_argument', `language "${input}" has no build/test runner; use one of ${RUNNER_LANGUAGES.join(', ')} (javascript and c work too).`);
  return language;
}

export function languageOfFile(path: string): RunnerLanguage | undefined {
  return EXTENSIONS[extname(path).toLowerCase()];
}

function markerLanguage(dir: string, only?: RunnerLanguage): RunnerLanguage | undefined {
  for (const language of only ? [only] : RUNNER_LANGUAGES) {
    if (PROJECT_MARKERS[language].some((m) => existsSync(join(dir, m)))) return language;
  }
  return undefined;
}

/**
 * The project a run belongs to: the nearest directory from `start` up to `root` holding a marker
 * of the language (of any language when it is not known yet), else the root. The language comes
 * from the argument, the target file's extension, that project's markers, or the root's source files.
 */
export function findProject(start: string, root: string, language: RunnerLanguage | undefined): { dir: string; language: RunnerLanguage } {
  for (let dir = start; isWithin(root, dir); dir = dirname(dir)) {
    const found = markerLanguage(dir, language);
    if (found) return { dir, language: found };
    if (dir === root) break;
  }
  const found = language ?? markerLanguage(root) ?? languageOfSources(root);
  if (!found) {
    throw new UserError('invalid_argument', `Could not tell which language ${root} is built and tested with (no go.mod, package.json, pyproject.toml, CMakeLists.txt, Makefile or sources at its top): pass language.`);
  }
  return { dir: root, language: found };
}

function languageOfSources(dir: string): RunnerLanguage | undefined {
  try {
    for (const name of readdirSync(dir).sort()) {
      const language = languageOfFile(name);
      if (language) return language;
    }
  } catch {
    // unreadable: no answer
  }
  return undefined;
}

/** The language of a directory given as workspace_dir: its markers, else its sources. */
export function languageOfDirectory(dir: string): RunnerLanguage {
  const found = markerLanguage(dir) ?? languageOfSources(dir);
  if (!found) throw new UserError('invalid_argument', `Could not tell which language ${dir} is built and tested with (no project file or sources at its top): pass language.`);
  return found;
}
