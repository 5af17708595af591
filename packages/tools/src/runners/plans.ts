import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { isWithin, UserError } from '@agent-lsp/protocol';
import { detectPythonInterpreter, findExecutable } from '@agent-lsp/lsp';
import type { ParserId } from './parsers/index.js';
import type { ConfiguredRunner, RunnerConfig, RunnerLanguage } from './runnerConfig.js';

export type RunKind = 'build' | 'test';

export interface RunRequest {
  kind: RunKind;
  language: RunnerLanguage;
  /** The directory the runner runs in (a realpath inside the roots). */
  dir: string;
  /** The workspace root holding `dir`: upward searches (lockfiles, node_modules) stop there. */
  root: string;
  /** A file or directory to build or test (absolute, inside the roots). */
  target?: string;
  testName?: string;
  config: RunnerConfig;
  signal: AbortSignal;
}

export interface RunnerPlan {
  language: RunnerLanguage;
  /** What runs, as the result names it: pytest, unittest, npm run test, tsc, go test, make… */
  runner: string;
  argv: string[];
  cwd: string;
  parsers: readonly ParserId[];
  /** Added to the runner's environment. */
  env: Record<string, string>;
  goModule?: { path: string; dir: string };
}

/** Which runner builds or tests the project, as an argv: the config's when it names one, else detected. */
export async function planRun(req: RunRequest): Promise<RunnerPlan> {
  const configured = req.config[req.language];
  const argv = configured?.[req.kind];
  if (configured && argv) return configuredPlan(req, configured, argv);
  switch (req.language) {
    case 'python':
      return pythonPlan(req);
    case 'typescript':
      return typescriptPlan(req);
    case 'go':
      return goPlan(req);
    case 'cpp':
      return cppPlan(req);
  }
}

/** The target as the runner in `dir` is given it. */
function targetArg(req: RunRequest): string[] {
  return req.target ? [relative(req.dir, req.target) || '.'] : [];
}

function missing(what: string, install: string): UserError {
  return new UserError('not_supported', `${what} is not installed (not found on PATH). ${install}`);
}

function executable(name: string, install: string, cwd: string): string {
  const found = name.includes('/') ? findExecutable(isAbsolute(name) ? name : resolve(cwd, name)) : findExecutable(name);
  if (!found) throw missing(name, install);
  return found;
}

function configuredPlan(req: RunRequest, configured: ConfiguredRunner, argv: string[]): RunnerPlan {
  const [command = '', ...args] = argv;
  const nameArgs: string[] = [];
  if (req.testName !== undefined) {
    if (!configured.test_name_flag) {
      throw new UserError('invalid_argument', `The configured ${req.language} test command has no test_name_flag, so test_name cannot be passed: add one to runners.${req.language} in the config, or leave test_name out.`);
    }
    nameArgs.push(configured.test_name_flag, req.testName);
  }
  return {
    language: req.language,
    runner: 'configured',
    argv: [executable(command, `It is the ${req.kind} command configured for ${req.language}; install it or fix runners.${req.language}.${req.kind} in the config.`, req.dir), ...args, ...targetArg(req), ...nameArgs],
    cwd: req.dir,
    parsers: ['pytest', 'unittest', 'jsTest', 'nodeTest', 'tsc', 'goTest', 'gcc', 'pythonCompile'],
    // A configured Python command writes no more into the workspace than a detected one.
    env: req.language === 'python' ? pythonEnv() : {},
  };
}

const PYTHON_INSTALL = 'Install Python 3 (e.g. apt-get install python3), or create a .venv in the workspace.';
/**
 * Python writes no __pycache__ into the workspace; compileall's go here (a cache, reused). A
 * function, not a constant: TMPDIR and the uid are the running process's, never those of whatever
 * loaded the module (a start-up snapshot is built by another process).
 */
const pycacheDir = (): string => join(tmpdir(), `agent-lsp-pycache-${process.getuid?.() ?? 'user'}`);

/** The environment every Python runner (detected or configured) gets: no bytecode in the workspace. */
const pythonEnv = (): Record<string, string> => ({ PYTHONDONTWRITEBYTECODE: '1', PYTHONPYCACHEPREFIX: pycacheDir() });

async function pythonPlan(req: RunRequest): Promise<RunnerPlan> {
  const interpreter = detectPythonInterpreter(req.dir) ?? detectPythonInterpreter(req.root);
  if (!interpreter) throw missing('python3', PYTHON_INSTALL);
  const python = interpreter.path;
  const env = pythonEnv();
  if (req.kind === 'build') {
    const exclude = '(^|/)(\\.[^/]*|node_modules|venv|__pycache__|site-packages|build|dist)/';
    return { language: 'python', runner: 'compileall', argv: [python, '-m', 'compileall', '-q', '-x', exclude, ...(req.target ? targetArg(req) : ['.'])], cwd: req.dir, parsers: ['pythonCompile'], env };
  }
  if (await importable(python, 'pytest', req.dir, req.signal)) {
    const name = req.testName !== undefined ? ['-k', req.testName] : [];
    return {
      language: 'python',
      runner: 'pytest',
      argv: [python, '-m', 'pytest', '-p', 'no:cacheprovider', '--color=no', '-rfE', '--tb=short', ...targetArg(req), ...name],
      cwd: req.dir,
      parsers: ['pytest'],
      env,
    };
  }
  const target = req.target && statSync(req.target).isDirectory() ? ['discover', '-s', relative(req.dir, req.target) || '.', '-t', '.'] : targetArg(req);
  const name = req.testName !== undefined ? ['-k', req.testName] : [];
  return { language: 'python', runner: 'unittest', argv: [python, '-m', 'unittest', ...target, ...name], cwd: req.dir, parsers: ['unittest'], env };
}

/** Whether the workspace's interpreter can import a module (`python -c "import pytest"`). */
function importable(python: string, module: string, cwd: string, signal: AbortSignal): Promise<boolean> {
  return new Promise((done) => {
    execFile(python, ['-c', `import ${module}`], { cwd, timeout: 30_000, signal }, (err) => done(!err));
  });
}

/** npm's placeholder for a package without tests. */
const NPM_PLACEHOLDER = /no test specified/;

function readScripts(dir: string): Record<string, string> | undefined {
  const path = join(dir, 'package.json');
  if (!existsSync(path)) return undefined;
  try {
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as { scripts?: Record<string, unknown> };
    return Object.fromEntries(Object.entries(pkg.scripts ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch (err) {
    throw new UserError('invalid_argument', `${path} is not valid JSON: ${(err as Error).message}`);
  }
}

/** The directories from `dir` up to `root`, nearest first. */
function upTo(dir: string, root: string): string[] {
  const dirs: string[] = [];
  for (let d = dir; isWithin(root, d); d = dirname(d)) {
    dirs.push(d);
    if (d === root) break;
  }
  return dirs;
}

const PACKAGE_MANAGERS = [
  { lockfile: 'pnpm-lock.yaml', name: 'pnpm', install: 'Install it with `npm install -g pnpm` or `corepack enable`.' },
  { lockfile: 'yarn.lock', name: 'yarn', install: 'Install it with `npm install -g yarn` or `corepack enable`.' },
  { lockfile: 'package-lock.json', name: 'npm', install: 'Install Node.js with npm (https://nodejs.org).' },
] as const;

function typescriptPlan(req: RunRequest): RunnerPlan {
  const scripts = readScripts(req.dir);
  const script = scripts?.[req.kind];
  if (script !== undefined && !(req.kind === 'test' && NPM_PLACEHOLDER.test(script))) {
    const dirs = upTo(req.dir, req.root);
    const pm = PACKAGE_MANAGERS.find((p) => dirs.some((d) => existsSync(join(d, p.lockfile)))) ?? PACKAGE_MANAGERS[2];
    const bin = executable(pm.name, pm.install, req.dir);
    const extra = [...targetArg(req), ...jsTestNameArgs(script, req.testName)];
    // npm hands arguments to the script only after `--`; pnpm and yarn pass them on as they are.
    const passOn = pm.name === 'npm' && extra.length > 0 ? ['--', ...extra] : extra;
    return { language: 'typescript', runner: `${pm.name} run ${req.kind}`, argv: [bin, 'run', req.kind, ...passOn], cwd: req.dir, parsers: ['jsTest', 'nodeTest', 'tsc'], env: {} };
  }
  if (req.kind === 'test') {
    throw new UserError(
      'not_supported',
      `${join(req.dir, 'package.json')} has no test script${scripts ? '' : ' (there is no package.json)'}: add one (e.g. "test": "vitest run" or "node --test"), or configure runners.typescript.test.`,
    );
  }
  if (!existsSync(join(req.dir, 'tsconfig.json'))) {
    throw new UserError('not_supported', `${req.dir} has neither a build script in package.json nor a tsconfig.json to type-check: add one, or configure runners.typescript.build.`);
  }
  const local = upTo(req.dir, req.root).map((d) => join(d, 'node_modules', '.bin', 'tsc')).find((p) => findExecutable(p));
  const argv = local ? [local] : [process.execPath, bundledTsc()];
  return { language: 'typescript', runner: 'tsc', argv: [...argv, '--noEmit', '--pretty', 'false', '-p', req.dir], cwd: req.dir, parsers: ['tsc'], env: {} };
}

/**
 * The tsc of the TypeScript agent-lsp runs typescript-language-server with: @agent-lsp/lsp's in a
 * checkout; in the installed package (one bundle, no @agent-lsp/* packages) its own dependency.
 */
function bundledTsc(): string {
  const fromTools = createRequire(import.meta.url);
  let fromLsp = fromTools;
  try {
    fromLsp = createRequire(fromTools.resolve('@agent-lsp/lsp'));
  } catch {
    // The installed package: typescript is a dependency beside the bundle.
  }
  return join(dirname(fromLsp.resolve('typescript/package.json')), 'bin', 'tsc');
}

/** How a package.json test script selects tests by name, read from the script's runner. */
function jsTestNameArgs(script: string, testName: string | undefined): string[] {
  if (testName === undefined) return [];
  if (/\bnode\b.*--test\b/.test(script)) return [`--test-name-pattern=${testName}`];
  if (/\b(vitest|jest)\b/.test(script)) return ['-t', testName];
  if (/\bmocha\b/.test(script)) return ['--grep', testName];
  throw new UserError('invalid_argument', `Cannot tell how the test script "${script}" selects tests by name (known: vitest, jest, node --test, mocha): leave test_name out, or configure runners.typescript.test with test_name_flag.`);
}

const GO_INSTALL = 'Install Go (https://go.dev/dl/, or apt-get install golang-go).';

function goPlan(req: RunRequest): RunnerPlan {
  const go = executable('go', GO_INSTALL, req.dir);
  const modulePath = /^module\s+(\S+)/m.exec(existsSync(join(req.dir, 'go.mod')) ? readFileSync(join(req.dir, 'go.mod'), 'utf8') : '')?.[1];
  let packages = ['./...'];
  if (req.target) {
    const dir = statSync(req.target).isDirectory() ? req.target : dirname(req.target);
    const rel = relative(req.dir, dir);
    packages = [rel ? `./${rel}/...` : './...'];
    if (!statSync(req.target).isDirectory()) packages = [rel ? `./${rel}` : '.'];
  }
  const name = req.kind === 'test' && req.testName !== undefined ? ['-run', req.testName] : [];
  return {
    language: 'go',
    runner: `go ${req.kind}`,
    argv: [go, req.kind, ...packages, ...name],
    cwd: req.dir,
    parsers: ['goTest'],
    env: {},
    ...(modulePath ? { goModule: { path: modulePath, dir: req.dir } } : {}),
  };
}

const CMAKE_INSTALL = 'Install CMake (e.g. apt-get install cmake).';
const MAKE_INSTALL = 'Install make (e.g. apt-get install make, or build-essential).';

/** A directory below `dir` that CMake has configured (holds CMakeCache.txt), build/ first. */
function cmakeBuildDir(dir: string): string | undefined {
  const preferred = ['build', 'cmake-build-debug', 'cmake-build-release', 'out/build'];
  let others: string[] = [];
  try {
    others = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch {
    // unreadable
  }
  return [...preferred, ...others].map((d) => join(dir, d)).find((d) => existsSync(join(d, 'CMakeCache.txt')));
}

function cppPlan(req: RunRequest): RunnerPlan {
  const buildDir = cmakeBuildDir(req.dir);
  const base = { language: 'cpp' as const, cwd: req.dir, parsers: ['gcc'] as const, env: {} };
  if (buildDir) {
    if (req.kind === 'build') return { ...base, runner: 'cmake --build', argv: [executable('cmake', CMAKE_INSTALL, req.dir), '--build', buildDir] };
    const name = req.testName !== undefined ? ['-R', req.testName] : [];
    return { ...base, runner: 'ctest', argv: [executable('ctest', CMAKE_INSTALL, req.dir), '--test-dir', buildDir, '--output-on-failure', ...name] };
  }
  if (['Makefile', 'makefile', 'GNUmakefile'].some((m) => existsSync(join(req.dir, m)))) {
    if (req.testName !== undefined) throw new UserError('invalid_argument', 'make test cannot select tests by name: leave test_name out, or configure runners.cpp.test with test_name_flag.');
    return { ...base, runner: req.kind === 'build' ? 'make' : 'make test', argv: [executable('make', MAKE_INSTALL, req.dir), ...(req.kind === 'test' ? ['test'] : [])] };
  }
  if (existsSync(join(req.dir, 'CMakeLists.txt'))) {
    throw new UserError('not_supported', `${req.dir} has a CMakeLists.txt but no configured build directory: configure it once (cmake -S . -B build), or configure runners.cpp.${req.kind}.`);
  }
  throw new UserError('not_supported', `${req.dir} has no CMake build directory and no Makefile: configure runners.cpp.${req.kind} with the command that builds it.`);
}
