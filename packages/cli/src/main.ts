import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { choosePythonServer, chooseTsServer, type PythonServer, type TsServer } from '@agent-lsp/lsp';
import { AGENT_LSP_VERSION, startupMark } from '@agent-lsp/protocol';
import type { BrokerLeaseOptions } from '@agent-lsp/broker';
import type { AgentLspServerOptions } from '@agent-lsp/server';
import type { AuditTailOptions } from './auditCommand.js';
import type { DaemonStopOptions } from './daemonCommands.js';
import type { DoctorCommandOptions } from './doctorCommand.js';
import type { HttpServeFlags } from './httpServe.js';
import type { LspCommandOptions } from './lspCommand.js';
import { registerBrokerCommand } from './brokerCommand.js';
import { configPathFrom, logLevel, registryFrom } from './commandOptions.js';
import { registerInstallCommands } from './installCommands.js';
import { originalCompat } from './originalCompat.js';
import { registerRecoverCommand } from './recoverCommand.js';
import { registerSkillsCommand } from './skillsCommand.js';
import { registerServersCommands } from './servers/serversCommands.js';

// Commands load what they need when they run: a broker process never loads the MCP SDK or the
// tools, and `--version` or `daemon-status` answer without loading the whole server.
const TOOL_GROUP_NAMES = 'lifecycle, workspace, analysis, navigation, editing, simulation, skills, build';

/** serve's options: its own, and the --http ones httpServe.ts reads. */
interface ServeOptions extends HttpServeFlags {
  tools?: string;
  config?: string;
  /** The original agent-lsp's flag: true, or the config file it names. */
  mergeConfig?: boolean | string;
  daemon: string;
  idleTimeout?: string;
  maxBrokerMemory?: string;
  auditLog?: string;
  root?: string;
  http?: boolean;
  prefetch: string;
  outputFormat: string;
  tsServer?: string;
  pythonServer?: string;
}

/**
 * What tests inject into the front they start (test/helpers/testFront.mjs): hooks and timings
 * that production never sets. The command line and the environment stay as they are.
 */
export interface FrontInjection {
  ledger?: AgentLspServerOptions['ledger'];
  lease?: BrokerLeaseOptions;
}

/** `--ts-server`, else AGENT_LSP_TS_SERVER, else the config's typescript_server, else tsls; an unknown name ends the command. */
function tsServerFrom(flag: string | undefined, configPath: string | undefined, program: Command): TsServer {
  try {
    return chooseTsServer({ flag, env: process.env['AGENT_LSP_TS_SERVER'], configPath });
  } catch (e) {
    return program.error(`error: ${(e as Error).message}`);
  }
}

/** `--python-server`, else AGENT_LSP_PYTHON_SERVER, else pyright; an unknown name ends the command. */
function pythonServerFrom(flag: string | undefined, program: Command): PythonServer {
  try {
    return choosePythonServer({ flag, env: process.env['AGENT_LSP_PYTHON_SERVER'] });
  } catch (e) {
    return program.error(`error: ${(e as Error).message}`);
  }
}

const PYTHON_SERVER_HELP = 'the Python server: pyright (default) | basedpyright | pylsp | jedi | ruff | ty | pyrefly (or AGENT_LSP_PYTHON_SERVER)';

const TS_SERVER_HELP = 'the TypeScript/JavaScript server: tsls (typescript-language-server, default) | tsgo (typescript-go) (or AGENT_LSP_TS_SERVER, or typescript_server in --config)';

/** `--root`/AGENT_LSP_ROOT: an existing directory (relative to the current one), as its realpath. */
function workspaceRoot(dir: string, program: Command): string {
  try {
    const real = realpathSync(resolve(dir));
    if (statSync(real).isDirectory()) return real;
  } catch {
    // reported below
  }
  return program.error(`error: --root ${dir} (or AGENT_LSP_ROOT) is not a directory`);
}

const MAX_BROKER_MEMORY_HELP =
  'memory budget of all brokers (RSS with their servers), like 4G or 512M, or off; before starting a broker, idle ones are evicted least recently used first while over it (or AGENT_LSP_MAX_BROKER_MEMORY, config max_broker_memory; default half the RAM)';

/** `--max-broker-memory`, else AGENT_LSP_MAX_BROKER_MEMORY, else the config file, else half the RAM; an invalid value ends the command. */
async function brokerMemoryBudget(flag: string | undefined, configPath: string | undefined, program: Command) {
  const { resolveBrokerMemoryBudget } = await import('@agent-lsp/broker');
  try {
    return resolveBrokerMemoryBudget({ flag, configPath });
  } catch (e) {
    return program.error(`error: ${(e as Error).message}`);
  }
}

function err(line: string): void {
  process.stderr.write(line + '\n');
}

function out(line: string): void {
  process.stdout.write(line + '\n');
}

/** What `serve` loads when it runs (the start-up snapshot loads it ahead: scripts/snapshotEntry.cjs). */
export function loadServeModules() {
  return Promise.all([import('@agent-lsp/lsp'), import('@agent-lsp/server'), import('@agent-lsp/tools'), import('@agent-lsp/workspace')]);
}

export function buildProgram(injected: FrontInjection = {}): Command {
  const program = new Command();
  program
    .name('agent-lsp')
    .description('Code intelligence of real language servers for AI coding agents, over MCP.')
    .version(AGENT_LSP_VERSION, '-v, --version')
    // One line saying where help is: the whole help after the message buried it.
    .showHelpAfterError('(add --help for usage)');

  const serve = async (opts: ServeOptions, cmd: Command) => {
    // `serve` is the default command, so a mistyped command arrives here as an argument, unless
    // it is the original agent-lsp's `go:gopls …` form.
    const original = originalCompat(cmd.args, process.env, err);
    if (!original) return program.error(`error: unknown command '${cmd.args[0]}' (see agent-lsp --help)`);
    const root = opts.root !== undefined && opts.root !== '' ? workspaceRoot(opts.root, program) : undefined;
    const [{ createLogger }, { serveStdio }, { TOOL_GROUPS, loadRunnerConfig }, { connectionFactory, parseDaemonMode }] = await loadServeModules();
    startupMark('server modules loaded');
    const logger = createLogger({ scope: 'front', ...logLevel() });
    const groups = opts.tools ? opts.tools.split(',').map((g) => g.trim()).filter(Boolean) : undefined;
    const unknown = groups?.filter((g) => !TOOL_GROUPS.includes(g as never)) ?? [];
    if (unknown.length) program.error(`unknown tool group(s): ${unknown.join(', ')}; known: ${TOOL_GROUPS.join(', ')}`);
    const idleTimeoutMs = opts.idleTimeout !== undefined ? Number(opts.idleTimeout) : undefined;
    if (idleTimeoutMs !== undefined && !(idleTimeoutMs > 0)) program.error('--idle-timeout must be a positive number of milliseconds');
    // The original agent-lsp's `--merge-config <file>` names the config file itself.
    if (opts.config !== undefined && typeof opts.mergeConfig === 'string' && opts.mergeConfig !== opts.config) program.error('--merge-config and --config name two different files: give one.');
    const configPath = configPathFrom(opts.config ?? (typeof opts.mergeConfig === 'string' ? opts.mergeConfig : undefined));
    const maxBrokerMemory = await brokerMemoryBudget(opts.maxBrokerMemory, configPath, program);
    const tsServer = tsServerFrom(opts.tsServer, configPath, program);
    // Over HTTP every language goes through a broker unless told otherwise: sessions then share
    // one server per (root, language) instead of starting their own (docs/http.md).
    const daemonMode = opts.http && cmd.getOptionValueSource('daemon') === 'default' && process.env['AGENT_LSP_DAEMON'] === undefined ? 'always' : opts.daemon;
    const connect = connectionFactory({
      mode: parseDaemonMode(daemonMode),
      ...(opts.http ? { clientKind: 'http' as const } : {}),
      ...(idleTimeoutMs ? { idleTimeoutMs } : {}),
      ...(configPath ? { configPath } : {}),
      ...(injected.lease ? { lease: injected.lease } : {}),
      maxBrokerMemory: maxBrokerMemory.bytes,
    });
    const auditLog = opts.auditLog ?? original.auditLog;
    const ledger = { ...injected.ledger, ...(auditLog !== undefined ? { auditLogPath: resolve(auditLog) } : {}) };
    const runners = configPath ? loadRunnerConfig(configPath) : undefined;
    const agent = {
      registry: registryFrom(configPath, original.servers, tsServer, pythonServerFrom(opts.pythonServer, program)),
      logger,
      connect,
      ledger,
      ...(groups ? { toolGroups: groups } : {}),
      ...(root ? { root } : {}),
      ...(runners ? { runners } : {}),
      prefetch: opts.prefetch === 'on',
      outputFormat: opts.outputFormat === 'json' ? ('json' as const) : ('text' as const),
    };
    if (opts.http) {
      const { runHttpServe } = await import('./httpServe.js');
      return runHttpServe(opts, agent, program, err).then(exitAfterServe);
    }
    return serveStdio(agent).then(exitAfterServe);
  };
  const serveOptions = (cmd: Command) =>
    cmd
      .option('--tools <groups>', `only these tool groups, comma-separated (${TOOL_GROUP_NAMES})`)
      .option('--config <file>', 'JSON file with custom language servers and build/test runners (or AGENT_LSP_CONFIG)')
      .addOption(
        new Option('--daemon <mode>', 'share warm servers through broker daemons: auto | always | never')
          .choices(['auto', 'always', 'never'])
          .default(process.env['AGENT_LSP_DAEMON'] ?? 'auto'),
      )
      .addOption(
        new Option('--prefetch <mode>', 'answer likely next read-only queries ahead of time: on | off (or AGENT_LSP_PREFETCH)')
          .choices(['on', 'off'])
          .default(/^(off|0|false|no)$/i.test(process.env['AGENT_LSP_PREFETCH'] ?? '') ? 'off' : 'on'),
      )
      .addOption(
        // The original agent-lsp's AGENT_LSP_OUTPUT_FORMAT: its CI and scripts read results as JSON.
        new Option('--output-format <format>', "a result's text: text (compact, for agents) | json (its structured content) (or AGENT_LSP_OUTPUT_FORMAT)")
          .choices(['text', 'json'])
          .default(process.env['AGENT_LSP_OUTPUT_FORMAT']?.toLowerCase() === 'json' ? 'json' : 'text'),
      )
      .option('--idle-timeout <ms>', 'brokers started by this front stop after this long without clients (default 30 min)')
      .option('--max-broker-memory <size>', MAX_BROKER_MEMORY_HELP)
      .option('--ts-server <name>', TS_SERVER_HELP)
      .option('--python-server <name>', PYTHON_SERVER_HELP)
      .option('--audit-log <path>', 'append the audit log (one JSON line per tool call) here instead of the state dir')
      .addOption(
        new Option('--root <dir>', 'the workspace root, for clients that start one process per call and never call start_lsp (or AGENT_LSP_ROOT)').env(
          'AGENT_LSP_ROOT',
        ),
      )
      .option('--http', 'serve MCP over Streamable HTTP at /mcp instead of stdio')
      .option('--port <n>', 'with --http: the port (0 picks a free one and prints it)', '0')
      .option('--listen <addr>', 'with --http: the address to listen on', '127.0.0.1')
      // The original agent-lsp's name for --listen.
      .addOption(new Option('--listen-addr <addr>').hideHelp())
      // The original's: configured servers override and extend the detected ones, which is what
      // --config always does here (docs/migrating.md).
      .addOption(new Option('--merge-config [file]', 'the config file (or with --config): its servers override and extend the built-in ones (always so here; the original agent-lsp\'s flag)').hideHelp())
      .option('--token <token>', 'with --http: the bearer token clients must send (or AGENT_LSP_TOKEN; else one is generated and printed once)')
      .option('--no-auth', 'with --http on a loopback address only: accept requests without a token')
      .option('--allow-origin <origin...>', 'with --http: browser origins allowed besides loopback ones')
      .option('--session-idle-timeout <ms>', 'with --http: end an MCP session after this long without requests (default 30 min)')
      .option('--request-timeout <ms>', 'with --http: the longest time receiving one request (headers and body) may take (default 30 s)')
      .option('--max-body-bytes <n>', 'with --http: the largest request body accepted (default 4 MiB)')
      .allowExcessArguments(true);

  serveOptions(program.command('serve', { isDefault: true }).description('serve MCP on stdio, or over Streamable HTTP with --http (the default command)')).action(serve);

  program
    .command('doctor')
    .description('start each language server found: version, initialize time, the tools it serves; exit 1 when one fails')
    .option('--json', 'print JSON')
    .option('--config <file>', 'JSON file with custom language servers')
    .option('--root <dir>', 'start the servers in this workspace (default: an empty scratch one); its files say which are needed')
    .option('--quick', 'only find the servers and ask their versions; do not start them')
    .option('--timeout <s>', 'seconds a server may take to initialize (default 60)')
    .action(async (opts: DoctorCommandOptions) => {
      const { runDoctorCommand } = await import('./doctorCommand.js');
      process.exitCode = await runDoctorCommand(opts, out, err);
      // Every server it started is ended; a handle one left behind must not keep doctor running.
      await flushedStdout();
      process.exit(process.exitCode);
    });

  registerBrokerCommand(program);

  program
    .command('lsp')
    .description('serve LSP on stdio for an editor, relayed to the warm broker agents use for --root (shared server, same diagnostics)')
    .option('--root <dir>', 'the workspace root, as the agents\' start_lsp root (default: the root the editor\'s initialize names)')
    .option('--language <id>', 'python, typescript, go, cpp… (default: every file to its own language\'s broker, the language with most files under the root answering initialize)')
    .option('--config <file>', 'JSON file with custom language servers (or AGENT_LSP_CONFIG)')
    .option('--idle-timeout <ms>', 'a broker this starts stops after this long without clients (default 30 min)')
    .option('--max-broker-memory <size>', MAX_BROKER_MEMORY_HELP)
    .option('--ts-server <name>', TS_SERVER_HELP)
    .option('--python-server <name>', PYTHON_SERVER_HELP)
    .action(async (opts: LspCommandOptions & { config?: string; maxBrokerMemory?: string; tsServer?: string; pythonServer?: string }) => {
      const [{ runLspCommand }, { createLogger }] = await Promise.all([import('./lspCommand.js'), import('@agent-lsp/lsp')]);
      const configPath = configPathFrom(opts.config);
      opts.maxBrokerMemoryBytes = (await brokerMemoryBudget(opts.maxBrokerMemory, configPath, program)).bytes;
      const tsServer = tsServerFrom(opts.tsServer, configPath, program);
      const logger = createLogger({ scope: 'lsp', ...logLevel() });
      process.exitCode = await runLspCommand(opts, registryFrom(configPath, [], tsServer, pythonServerFrom(opts.pythonServer, program)), logger, configPath, err);
      process.exit();
    });

  program
    .command('daemon-status')
    .description('list broker daemons: language, root, state, progress, clients, uptime, idle, last activity, pids, memory, and the memory budget; stale dirs and orphans flagged')
    .option('--json', 'print JSON')
    .option('--max-broker-memory <size>', 'show usage against this budget instead of the configured one (AGENT_LSP_MAX_BROKER_MEMORY, config, half the RAM)')
    .option('--config <file>', 'the config file whose max_broker_memory to show (or AGENT_LSP_CONFIG)')
    .action(async (opts: { json?: boolean; maxBrokerMemory?: string; config?: string }) => {
      const { runDaemonStatus } = await import('./daemonCommands.js');
      const budget = await brokerMemoryBudget(opts.maxBrokerMemory, configPathFrom(opts.config), program);
      await runDaemonStatus(opts.json === true, out, budget);
    });

  program
    .command('daemon-stop')
    .description('stop broker daemons: graceful, then SIGTERM, then SIGKILL; prints what it stopped')
    .option('--all', 'every daemon (and clean stale dirs)')
    .option('--root <dir>', 'the daemons of this workspace root')
    .option('--language <id>', 'with --root: only this language (python, typescript)')
    .option('--force', 'skip the graceful stop; with --all also end orphan brokers')
    .action(async (opts: DaemonStopOptions) => {
      const { runDaemonStop } = await import('./daemonCommands.js');
      process.exitCode = await runDaemonStop(opts, out, err);
    });

  program
    .command('audit')
    .description('the audit log of tool calls')
    .command('tail')
    .description('print the last tool calls: time, tool, outcome, duration, files, checkpoint, rollbacks')
    .option('-n, --lines <n>', 'how many calls', '20')
    .option('--root <dir>', 'only the calls in this workspace root')
    .option('--audit-log <path>', 'read this audit log instead of the state dir\'s')
    .option('--json', 'print the JSON lines')
    .action(async (opts: AuditTailOptions) => {
      const { runAuditTail } = await import('./auditCommand.js');
      process.exitCode = runAuditTail(opts, out, err);
    });

  program
    .command('demo')
    .description('run agent-lsp on the bundled example workspace, as an agent would, and print a transcript')
    .option('--workspace <dir>', 'another workspace to run the demo on')
    .option('--ts-server <name>', TS_SERVER_HELP)
    .action(async (opts: { workspace?: string; tsServer?: string }) => {
      const { runDemo } = await import('./demo.js');
      const tsServer = opts.tsServer !== undefined ? tsServerFrom(opts.tsServer, undefined, program) : undefined;
      await runDemo(out, opts.workspace, tsServer);
    });

  registerRecoverCommand(program, out, err);
  registerSkillsCommand(program, out, err);
  registerInstallCommands(program, out, err);
  registerServersCommands(program, out, err);
  return program;
}

export async function main(argv: string[], injected: FrontInjection = {}): Promise<void> {
  await buildProgram(injected).parseAsync(argv);
}

/** For `serve`: once the client is gone and the servers are stopped, nothing is left to wait for. */
export function exitAfterServe(): void {
  process.exit(process.exitCode ?? 0);
}

/** Resolves once what was written to stdout has been handed to the OS (stdout may be a pipe). */
function flushedStdout(): Promise<void> {
  return new Promise((resolve) => process.stdout.write('', () => resolve()));
}
