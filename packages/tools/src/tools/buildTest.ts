import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { z } from 'zod';
import { UserError } from '@agent-lsp/protocol';
import { findProject, languageOfDirectory, languageOfFile, normalizeLanguage } from '../runners/detection.js';
import { OutputCap } from '../runners/outputCap.js';
import { parseFailures, type ParsedFailure } from '../runners/parsers/index.js';
import { stripAnsi } from '../runners/parsers/failure.js';
import { planRun, type RunKind, type RunnerPlan } from '../runners/plans.js';
import { runProcessGroup } from '../runners/processGroup.js';
import { pathInRoots } from '../runners/runnerPaths.js';
import type { RunnerLanguage } from '../runners/runnerConfig.js';
import { readyOutput } from '../catalog/schemas.js';
import { defineTool, RUNS, type ToolContext } from '../catalog/toolDefinition.js';

const DEFAULT_TIMEOUT_SECONDS = 300;
/** What the agent reads: the start (configuration, collection) and the end (failures, summary). */
const SHOWN_HEAD_CHARS = 4_000;
const SHOWN_TAIL_CHARS = 12_000;
/** What the parsers read: all of it up to a few megabytes, then head and tail. */
const PARSED_HEAD_CHARS = 2_000_000;
const PARSED_TAIL_CHARS = 2_000_000;
const MAX_FAILURES = 50;
const PROGRESS_EVERY_MS = 1_000;
const HEARTBEAT_MS = 10_000;

const runInput = {
  workspace_dir: z.string().optional().describe('Run here (default: path\'s project, else the root).'),
  path: z.string().optional().describe('File or directory to build/test.'),
  language: z.string().optional().describe('python, typescript, javascript, go, c, cpp. Default: detected.'),
  // A day at most: a longer delay overflows Node's timers (they would fire at once).
  timeout_seconds: z.number().positive().max(86_400).optional().describe('Then the process group is killed.').meta({ default: 300 }),
};

const failure = z.object({
  test_id: z.string().optional(),
  file: z.string().optional().describe('Root-relative.'),
  line: z.number().optional(),
  column: z.number().optional(),
  severity: z.enum(['error', 'warning']).optional(),
  message: z.string(),
});
type FailureOut = z.infer<typeof failure>;

const runOutput = {
  ...readyOutput,
  language: z.string().optional(),
  runner: z.string().optional().describe('pytest, unittest, npm run test, tsc, go test, make, configured…'),
  command: z.array(z.string()).optional().describe('The argv that ran (no shell).'),
  cwd: z.string().optional(),
  passed: z.boolean().optional().describe('Exit code 0 within the timeout.'),
  exit_code: z.number().nullable().optional(),
  timed_out: z.boolean().optional(),
  cancelled: z.boolean().optional(),
  pid: z.number().optional().describe('The runner process group, ended before this answer.'),
  duration_ms: z.number().optional(),
  total_failures: z.number().optional(),
  failures: z.array(failure).optional().describe(`Parsed failures (first ${MAX_FAILURES}).`),
  output: z.string().optional().describe('stdout+stderr: head and tail.'),
  output_truncated: z.boolean().optional(),
};
type RunResult = z.infer<z.ZodObject<typeof runOutput>>;

interface RunArgs {
  workspace_dir?: string | undefined;
  path?: string | undefined;
  language?: string | undefined;
  test_name?: string | undefined;
  timeout_seconds?: number | undefined;
}

/** Where to run, in which language: the arguments, else the project around path, else the root. */
async function locate(args: RunArgs, ctx: ToolContext): Promise<{ dir: string; root: string; language: RunnerLanguage; target?: string }> {
  // Without a workspace, an absolute file path names one (its project root is inferred from it).
  const hint = args.path?.startsWith('/') && isFile(args.path) ? args.path : undefined;
  await ctx.workspace.ensureRoots(hint, 'Call start_lsp with root_dir (the project directory) first.');
  const target = args.path !== undefined ? pathInRoots(ctx.workspace, args.path, 'path') : undefined;
  let language = args.language !== undefined ? normalizeLanguage(args.language) : undefined;
  if (!language && target && !target.isDirectory) language = languageOfFile(target.path);
  if (args.workspace_dir !== undefined) {
    const dir = pathInRoots(ctx.workspace, args.workspace_dir, 'workspace_dir');
    return { dir: dir.path, root: dir.root, language: language ?? languageOfDirectory(dir.path), ...(target ? { target: target.path } : {}) };
  }
  const root = target?.root ?? ctx.workspace.primaryRoot;
  if (!root) throw new UserError('no_workspace', 'No workspace is set. Call start_lsp with root_dir first.');
  const start = target ? (target.isDirectory ? target.path : dirname(target.path)) : root;
  const project = findProject(start, root, language);
  return { dir: project.dir, root, language: project.language, ...(target ? { target: target.path } : {}) };
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

async function runKind(kind: RunKind, args: RunArgs, ctx: ToolContext): Promise<RunResult> {
  const where = await locate(args, ctx);
  const plan = await planRun({
    kind,
    language: where.language,
    dir: where.dir,
    root: where.root,
    ...(where.target ? { target: where.target } : {}),
    ...(args.test_name !== undefined ? { testName: args.test_name } : {}),
    config: ctx.runners ?? {},
    signal: ctx.signal,
  });
  return execute(plan, (args.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS) * 1000, ctx);
}

async function execute(plan: RunnerPlan, timeoutMs: number, ctx: ToolContext): Promise<RunResult> {
  const shown = new OutputCap(SHOWN_HEAD_CHARS, SHOWN_TAIL_CHARS);
  const parsed = new OutputCap(PARSED_HEAD_CHARS, PARSED_TAIL_CHARS);
  let lastLine = '';
  let lastReport = 0;
  const report = () => {
    lastReport = Date.now();
    ctx.reportProgress({ message: `${plan.runner}: ${lastLine || 'running'}` });
  };
  const heartbeat = setInterval(() => {
    if (Date.now() - lastReport >= HEARTBEAT_MS) report();
  }, HEARTBEAT_MS);
  report();
  let outcome;
  try {
    outcome = await runProcessGroup({
      argv: plan.argv,
      cwd: plan.cwd,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...plan.env },
      timeoutMs,
      signal: ctx.signal,
      onLine(raw) {
        const line = stripAnsi(raw).replace(/\r$/, '');
        shown.push(`${line}\n`);
        parsed.push(`${line}\n`);
        if (line.trim() !== '') lastLine = line.trim().slice(0, 200);
        if (Date.now() - lastReport >= PROGRESS_EVERY_MS) report();
      },
    });
  } finally {
    clearInterval(heartbeat);
  }
  if (outcome.cancelled) throw new UserError('server_failed', `${plan.runner} was cancelled; its process group was killed.`);
  if (outcome.spawnError) {
    throw new UserError('not_supported', `Could not start ${plan.runner} (${plan.argv[0] ?? ''}): ${outcome.spawnError}.`);
  }
  const failures = parseFailures(plan.parsers, parsed.text(), { cwd: plan.cwd, ...(plan.goModule ? { goModule: plan.goModule } : {}) }).map((f) => display(f, ctx));
  return {
    ready: true,
    language: plan.language,
    runner: plan.runner,
    command: plan.argv,
    cwd: ctx.workspace.display(plan.cwd),
    passed: outcome.exitCode === 0 && !outcome.timedOut && !outcome.cancelled,
    exit_code: outcome.exitCode,
    ...(outcome.timedOut ? { timed_out: true } : {}),
    ...(outcome.cancelled ? { cancelled: true } : {}),
    ...(outcome.pid !== undefined ? { pid: outcome.pid } : {}),
    duration_ms: outcome.durationMs,
    total_failures: failures.length,
    failures: failures.slice(0, MAX_FAILURES),
    output: shown.text(),
    ...(shown.truncated ? { output_truncated: true } : {}),
  };
}

function display(f: ParsedFailure, ctx: ToolContext): FailureOut {
  return { ...f, ...(f.file !== undefined ? { file: ctx.workspace.display(f.file) } : {}) };
}

/** The argv, short: the runner's name instead of its path (the full argv is in `command`). */
function shownCommand(argv: readonly string[]): string {
  const [first = '', second, ...rest] = argv;
  // node running a script (the bundled tsc): name the script, not its place in node_modules.
  const script = first === process.execPath && second?.startsWith('/') ? [basename(second)] : second !== undefined ? [second] : [];
  return [basename(first), ...script, ...rest].join(' ');
}

function runText(r: RunResult): string {
  const head = r.timed_out
    ? `${r.runner} timed out after ${((r.duration_ms ?? 0) / 1000).toFixed(1)} s; its process group was killed.`
    : r.cancelled
      ? `${r.runner} was cancelled; its process group was killed.`
      : `${r.runner} ${r.passed ? 'passed' : `failed (exit code ${r.exit_code ?? 'none'})`} in ${((r.duration_ms ?? 0) / 1000).toFixed(1)} s.`;
  const lines = [`${head} Ran: ${shownCommand(r.command ?? [])} (in ${r.cwd})`];
  for (const f of r.failures ?? []) {
    const where = f.file ? `${f.file}${f.line !== undefined ? `:${f.line}${f.column !== undefined ? `:${f.column}` : ''}` : ''}` : '';
    const what = [f.test_id, where].filter(Boolean).join(' at ');
    lines.push(`- ${what ? `${what}: ` : ''}${f.message.split('\n')[0] ?? ''}`);
  }
  if ((r.total_failures ?? 0) > (r.failures?.length ?? 0)) lines.push(`… ${(r.total_failures ?? 0) - (r.failures?.length ?? 0)} more failure(s)`);
  if (!r.passed && (r.failures?.length ?? 0) === 0) lines.push('Output (tail):', (r.output ?? '').split('\n').slice(-30).join('\n'));
  return lines.join('\n');
}

export const runBuild = defineTool({
  name: 'run_build',
  title: 'Run the build',
  description: "Builds or type-checks the project with its own toolchain (detected or configured); errors come back as locations.",
  group: 'build',
  input: () => runInput,
  output: () => runOutput,
  annotations: RUNS,
  concurrency: 'none',
  handler: (args, ctx) => runKind('build', args, ctx),
  text: runText,
});

export const runTests = defineTool({
  name: 'run_tests',
  title: 'Run the tests',
  description: "Runs the project's tests (pytest/unittest, package.json script, go test, ctest); failures come back with test, file and line.",
  group: 'build',
  input: () => ({ ...runInput, test_name: z.string().optional().describe('Only tests matching this name.') }),
  output: () => runOutput,
  annotations: RUNS,
  concurrency: 'none',
  handler: (args, ctx) => runKind('test', args, ctx),
  text: runText,
});

export const buildTestTools = [runBuild, runTests];
