import { accessSync, constants, readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { CLIENT_IDS, CLIENT_NAMES, configTarget, SERVER_NAME, type ClientId, type Scope } from './clients/clientTargets.js';
import { installClaudePlugin } from './clients/claudePluginInstall.js';
import { editClientConfig, type EditOutcome } from './clients/configFileEdit.js';

export interface InitOptions {
  client?: string[];
  scope?: string;
  dryRun?: boolean;
  root?: string;
}

export interface ServerCommand {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/**
 * The command a client runs, absolute, so it works from any directory, with this node pinned.
 * bin/agent-lsp is run as a program (its sh part, as npm's bin link runs it), told the node in
 * AGENT_LSP_NODE: only then does a front start from the start-up snapshot with the fronts' node
 * flags (`node bin/agent-lsp` skips the sh part: ~30 ms more CPU to a first answer, ~300 ms
 * more wall time under load; docs/benchmarks.md).
 * Windows, or an entry that is not that script, gets `node <entry>`.
 */
export function serverCommand(): ServerCommand {
  const entry = process.argv[1] ? realpathSync(process.argv[1]) : '';
  if (process.platform !== 'win32' && isShProgram(entry)) return { command: entry, args: [], env: { AGENT_LSP_NODE: process.execPath } };
  return { command: process.execPath, args: [entry] };
}

/** Whether `file` is a script sh runs (bin/agent-lsp starts with `#!/bin/sh`, a few KB) and may be executed. */
function isShProgram(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return readFileSync(file, 'latin1').startsWith('#!/bin/sh\n');
  } catch {
    return false;
  }
}

export function describeOutcome(o: EditOutcome): string {
  if (o.action === 'refused') return `✗ ${o.file}: not changed: ${o.reason}`;
  const verb = { added: 'added agent-lsp to', updated: 'updated agent-lsp in', removed: 'removed agent-lsp from', unchanged: 'already has agent-lsp:', absent: 'has no agent-lsp entry:' }[o.action];
  return `${o.dryRun && (o.action === 'added' || o.action === 'updated' || o.action === 'removed') ? '(dry run) would have ' : ''}${verb} ${o.file}`;
}

async function askClients(out: (l: string) => void): Promise<ClientId[]> {
  CLIENT_IDS.forEach((c, i) => out(`  ${i + 1}. ${CLIENT_NAMES[c]} (${c})`));
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question('Wire agent-lsp into which clients? Numbers or names, separated by spaces: ');
    return answer
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((a) => (/^\d+$/.test(a) ? CLIENT_IDS[Number(a) - 1] : (a as ClientId)))
      .filter((c): c is ClientId => c !== undefined);
  } finally {
    rl.close();
  }
}

/**
 * `agent-lsp init`: writes (or merges) our MCP server entry into each chosen client's config,
 * editing only that entry; running it again changes nothing. Returns the exit code.
 */
export async function runInit(opts: InitOptions, out: (l: string) => void, err: (l: string) => void): Promise<number> {
  const scope = (opts.scope ?? 'user') as Scope;
  if (scope !== 'user' && scope !== 'project') {
    err(`error: --scope must be user or project, not "${opts.scope}"`);
    return 2;
  }
  let clients = (opts.client ?? []).flatMap((c) => c.split(',')).map((c) => c.trim().toLowerCase()).filter(Boolean);
  if (clients.length === 0) {
    if (!process.stdin.isTTY) {
      err(`error: say which client with --client (${CLIENT_IDS.join(', ')}), or run init in a terminal to choose`);
      return 2;
    }
    clients = await askClients(err);
  }
  const unknown = clients.filter((c) => !CLIENT_IDS.includes(c as ClientId));
  if (unknown.length > 0 || clients.length === 0) {
    err(`error: unknown client ${unknown.map((u) => `"${u}"`).join(', ') || '(none chosen)'}; known: ${CLIENT_IDS.join(', ')}`);
    return 2;
  }
  const project = resolve(opts.root ?? process.cwd());
  const { command, args, env } = serverCommand();
  let failed = 0;
  for (const client of clients as ClientId[]) {
    const target = configTarget(client, scope, project);
    if (typeof target === 'string') {
      err(`✗ ${CLIENT_NAMES[client]}: ${target}`);
      failed++;
      continue;
    }
    // User scope: the plugin carries the MCP server, the skills and Claude Code's LSP servers; once
    // it is installed an entry in ~/.claude.json would give every tool twice, so it goes.
    const plugin = client === 'claude' && scope === 'user' ? installClaudePlugin({ command, args, ...(env ? { env } : {}) }, opts.dryRun === true) : undefined;
    for (const line of plugin?.lines ?? []) (plugin?.failed ? err : out)(`${CLIENT_NAMES[client]}: ${line}`);
    if (plugin?.failed) failed++;
    const outcome = editClientConfig(target, plugin?.installed ? undefined : target.entry(command, args, env), opts.dryRun === true);
    if (!(plugin?.installed && outcome.action === 'absent')) (outcome.action === 'refused' ? err : out)(`${CLIENT_NAMES[client]}: ${describeOutcome(outcome)}`);
    if (outcome.action === 'refused') failed++;
    if (client === 'claude' && !plugin?.installed) out(`  (or: claude mcp add --scope ${scope === 'project' ? 'project' : 'user'} ${SERVER_NAME}${Object.entries(env ?? {}).map(([k, v]) => ` -e ${shellQuote(`${k}=${v}`)}`).join('')} -- ${[command, ...args].map(shellQuote).join(' ')})`);
  }
  return failed > 0 ? 1 : 0;
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
