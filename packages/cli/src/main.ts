import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Option } from 'commander';
import { loadCustomServers, parseLogLevel, ServerRegistry } from '@agent-lsp/lsp';
import { AGENT_LSP_VERSION } from '@agent-lsp/protocol';
import type { BrokerLeaseOptions } from '@agent-lsp/broker';
import type { AgentLspServerOptions } from '@agent-lsp/server';
import type { AuditTailOptions } from './auditCommand.js';
import type { BrokerCommandOptions, DaemonStopOptions } from './daemonCommands.js';
import { registerRecoverCommand } from './recoverCommand.js';
import { registerSkillsCommand } from './skillsCommand.js';

// Commands load what they need when they run: a broker process never loads the MCP SDK or the
// tools, and `--version` or `daemon-status` answer without loading the whole server.
const TOOL_GROUP_NAMES = 'lifecycle, workspace, analysis, navigation, editing, simulation, skills';

interface ServeOptions {
  tools?: string;
  config?: string;
  daemon: string;
  idleTimeout?: string;
  auditLog?: string;
  root?: string;
  prefetch: string;
}

/**
 * What tests inject into the front they start (test/helpers/testFront.mjs): hooks and timings
 * that production never sets. The command line and the environment stay as they are.
 */
export interface FrontInjection {
  ledger?: AgentLspServerOptions['ledger'];
  lease?: BrokerLeaseOptions;
}

/** `--config`, else AGENT_LSP_CONFIG: the custom servers file, absolute (brokers get it passed on). */
function configPathFrom(option: string | undefined): string | undefined {
  const path = option ?? process.env['AGENT_LSP_CONFIG'];
  return path ? resolve(path) : undefined;
}

function registryFrom(configPath: string | undefined): ServerRegistry {
  return new ServerRegistry(configPath ? loadCustomServers(configPath) : []);
}

function logLevel(fallback?: 'info') {
  const level = parseLogLevel(process.env['AGENT_LSP_LOG']) ?? fallback;
  return level ? { level } : {};
}

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

function err(line: string): void {
  process.stderr.write(line + '\n');
}

function out(line: string): void {
  process.stdout.write(line + '\n');
}

export function buildProgram(injected: FrontInjection = {}): Command {
  const program = new Command();
  program
    .name('agent-lsp')
    .description('Code intelligence of real language servers for AI coding agents, over MCP.')
    .version(AGENT_LSP_VERSION, '-v, --version')
    .showHelpAfterError();

  const serve = async (opts: ServeOptions, cmd: Command) => {
    // `serve` is the default command, so a mistyped command arrives here as an argument.
    if (cmd.args.length > 0) program.error(`error: unknown command '${cmd.args[0]}' (see agent-lsp --help)`);
    const root = opts.root !== undefined && opts.root !== '' ? workspaceRoot(opts.root, program) : undefined;
    const [{ createLogger }, { serveStdio }, { TOOL_GROUPS }, { connectionFactory, parseDaemonMode }] = await Promise.all([
      import('@agent-lsp/lsp'),
      import('@agent-lsp/server'),
      import('@agent-lsp/tools'),
      import('@agent-lsp/workspace'),
    ]);
    const logger = createLogger({ scope: 'front', ...logLevel() });
    const groups = opts.tools ? opts.tools.split(',').map((g) => g.trim()).filter(Boolean) : undefined;
    const unknown = groups?.filter((g) => !TOOL_GROUPS.includes(g as never)) ?? [];
    if (unknown.length) program.error(`unknown tool group(s): ${unknown.join(', ')}; known: ${TOOL_GROUPS.join(', ')}`);
    const idleTimeoutMs = opts.idleTimeout !== undefined ? Number(opts.idleTimeout) : undefined;
    if (idleTimeoutMs !== undefined && !(idleTimeoutMs > 0)) program.error('--idle-timeout must be a positive number of milliseconds');
    const configPath = configPathFrom(opts.config);
    const connect = connectionFactory({
      mode: parseDaemonMode(opts.daemon),
      ...(idleTimeoutMs ? { idleTimeoutMs } : {}),
      ...(configPath ? { configPath } : {}),
      ...(injected.lease ? { lease: injected.lease } : {}),
    });
    const ledger = { ...injected.ledger, ...(opts.auditLog !== undefined ? { auditLogPath: resolve(opts.auditLog) } : {}) };
    return serveStdio({ registry: registryFrom(configPath), logger, connect, ledger, ...(groups ? { toolGroups: groups } : {}), ...(root ? { root } : {}), prefetch: opts.prefetch === 'on' }).then(
      exitAfterServe,
    );
  };
  const serveOptions = (cmd: Command) =>
    cmd
      .option('--tools <groups>', `only these tool groups, comma-separated (${TOOL_GROUP_NAMES})`)
      .option('--config <file>', 'JSON file with custom language servers (or AGENT_LSP_CONFIG)')
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
      .option('--idle-timeout <ms>', 'brokers started by this front stop after this long without clients (default 30 min)')
      .option('--audit-log <path>', 'append the audit log (one JSON line per tool call) here instead of the state dir')
      .addOption(
        new Option('--root <dir>', 'the workspace root, for clients that start one process per call and never call start_lsp (or AGENT_LSP_ROOT)').env(
          'AGENT_LSP_ROOT',
        ),
      )
      .allowExcessArguments(true);

  serveOptions(program.command('serve', { isDefault: true }).description('serve MCP on stdio (the default command)')).action(serve);

  program
    .command('doctor')
    .description('check which language servers are available, their versions and where they come from')
    .option('--json', 'print JSON')
    .option('--config <file>', 'JSON file with custom language servers')
    .option('--root <dir>', 'project root (for the Python interpreter)', process.cwd())
    .action(async (opts: { json?: boolean; config?: string; root: string }) => {
      const { formatDoctor, runDoctor } = await import('./doctor.js');
      const entries = runDoctor(registryFrom(configPathFrom(opts.config)), opts.root);
      out(opts.json ? JSON.stringify(entries, null, 2) : formatDoctor(entries));
    });

  program
    .command('daemon-broker')
    .description('(internal) run a broker daemon; fronts start these by themselves')
    .requiredOption('--root <dir>', 'workspace root')
    .requiredOption('--language <id>', 'server id or language')
    .requiredOption('--key <key>', 'broker key (checked against root and profile)')
    .option('--idle-timeout <ms>', 'stop after this long without clients', String(30 * 60_000))
    .option('--max-in-flight <n>', 'requests in flight at the server at once, taken round-robin between clients (0: unbounded)')
    .option('--config <file>', 'JSON file with custom language servers (or AGENT_LSP_CONFIG)')
    .option('--scope <json>', 'directories to index, a JSON array (start_lsp scope)')
    .action(async (opts: BrokerCommandOptions & { config?: string }) => {
      const { runBrokerCommand } = await import('./daemonCommands.js');
      process.exitCode = await runBrokerCommand(registryFrom(configPathFrom(opts.config)), opts, logLevel('info'));
      process.exit();
    });

  program
    .command('daemon-status')
    .description('list broker daemons: language, root, state, progress, clients, uptime, idle, pids, memory; stale dirs and orphans flagged')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { runDaemonStatus } = await import('./daemonCommands.js');
      await runDaemonStatus(opts.json === true, out);
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
    .action(async (opts: { workspace?: string }) => {
      const { runDemo } = await import('./demo.js');
      await runDemo(out, opts.workspace);
    });

  registerRecoverCommand(program, out, err);
  registerSkillsCommand(program, out, err);
  return program;
}

export async function main(argv: string[], injected: FrontInjection = {}): Promise<void> {
  await buildProgram(injected).parseAsync(argv);
}

/** For `serve`: once the client is gone and the servers are stopped, nothing is left to wait for. */
export function exitAfterServe(): void {
  process.exit(process.exitCode ?? 0);
}
