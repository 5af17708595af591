import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { startupMark, UserError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { resolveDirectory } from '@agent-lsp/workspace';
import { checkedScope, scopeInput, scopeOutcome, scopeOutput, scopeText } from '../project/indexScope.js';
import { detectLanguages } from '../project/languageDetection.js';
import { onlyServer } from '../project/onlyServer.js';
import { awaitReady, notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { readinessInput, readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY, STATEFUL, type ToolContext } from '../catalog/toolDefinition.js';

const serverOut = z.object({
  language: z.string(),
  server: z.string(),
  state: z.string(),
  ready: z.boolean(),
  pid: z.number().optional(),
  companion_pid: z.number().optional().describe('A paired server\'s second process (vue-language-server beside vtsls).'),
  previous_pid: z.number().optional().describe('restart_lsp_server: the pid of the server it replaced (a shared server is restarted for every agent using it).'),
  version: z.string().optional(),
});
type ServerOut = z.infer<typeof serverOut>;

function describeConnection(conn: LspConnection): ServerOut {
  const out: ServerOut = {
    language: conn.server.languageIds.join('/'),
    server: conn.serverInfo?.name ?? conn.server.displayName,
    state: conn.readiness.state,
    ready: conn.readiness.snapshot().ready,
  };
  if (conn.pid !== undefined) out.pid = conn.pid;
  if (conn.companionPid !== undefined) out.companion_pid = conn.companionPid;
  if (conn.serverInfo?.version) out.version = conn.serverInfo.version;
  return out;
}

function pidText(s: ServerOut): string {
  if (s.pid === undefined) return '';
  const companion = s.companion_pid !== undefined ? `, companion pid ${s.companion_pid}` : '';
  if (s.previous_pid === undefined) return ` (pid ${s.pid}${companion})`;
  return s.previous_pid === s.pid ? ` (pid ${s.pid}: the same process, NOT restarted)` : ` (pid ${s.pid}${companion}, was ${s.previous_pid})`;
}

function serversText(servers: readonly ServerOut[]): string {
  return servers.map((s) => `- ${s.server}${s.version ? ` ${s.version}` : ''} for ${s.language}: ${s.state}${pidText(s)}`).join('\n');
}

/**
 * A root_dir argument, checked: relative paths are refused, since the front's current directory
 * is rarely the agent's. Returns the directory's realpath.
 */
function absoluteRootDir(input: string): string {
  if (input.trim() !== '' && !isAbsolute(input)) {
    throw new UserError('invalid_argument', `root_dir must be an absolute path; got "${input}". Pass the project directory as an absolute path (e.g. /home/me/project).`);
  }
  return resolveDirectory(input);
}

async function startAndMaybeWait(ctx: ToolContext, language: string, args: z.infer<z.ZodObject<typeof readinessInput>>) {
  const conn = await ctx.workspace.connection(ctx.workspace.registry.forLanguage(language));
  startupMark('start_lsp connected');
  const notReady = await awaitReady(conn, args, ctx);
  return { conn, notReady };
}

export const startLsp = defineTool({
  name: 'start_lsp',
  title: 'Start language servers for a workspace',
  description: 'Sets the workspace root; with language_id also starts that server and waits for its indexing. Call this first.',
  group: 'lifecycle',
  input: () => ({
    root_dir: z.string().describe('Absolute project directory.'),
    language_id: z.string().optional().describe('Start this server now: python, typescript, go, c, cpp, rust, …'),
    connect: z.string().optional().describe('host:port of a running server to use (needs language_id).'),
    scope: scopeInput,
    ...readinessInput,
  }),
  output: () => ({ ...readyOutput, scope: scopeOutput, root: z.string().optional(), detected: z.array(z.object({ language: z.string(), server: z.string(), files: z.number(), installed: z.boolean() })).optional().describe('Without language_id: the languages of the tree\'s files.'), servers: z.array(serverOut).optional() }),
  annotations: STATEFUL,
  async handler(args, ctx) {
    // Check everything before changing anything: a bad call leaves the workspace as it was.
    const server = args.language_id ? ctx.workspace.registry.forLanguage(args.language_id) : undefined;
    if (args.connect !== undefined && !server) throw new UserError('invalid_argument', 'connect needs language_id: say which language the server at that address speaks.');
    const scope = checkedScope(absoluteRootDir(args.root_dir), args.scope ?? []);
    startupMark('start_lsp arguments resolved');
    const root = await ctx.workspace.setRoot(args.root_dir);
    await ctx.workspace.setScope(scope);
    startupMark('start_lsp root set');
    if (args.connect !== undefined && server) await ctx.workspace.attachPassive(server, args.connect);
    // Told the language, it does not count the tree's files by language: that walk grew with the
    // workspace (0.4–0.5 s of a fresh agent's start on Django) to say what the caller already said.
    const found = server ? undefined : await detectLanguages(root, ctx.workspace.registry);
    // Which servers resolve matters to the detected languages and to a scope's outcome only: told
    // the language without a scope, its server is resolved once, by the connection that starts it.
    const installed = found || scope.length ? (found?.map((d) => d.server) ?? [server!]).filter((s) => s.resolve(root) !== undefined) : [];
    const detected = found?.map((d) => ({
      language: d.server.languageIds[0] ?? d.server.id,
      server: d.server.displayName,
      files: d.files,
      installed: installed.includes(d.server),
    }));
    startupMark('start_lsp languages known');
    let notReady: NotReadyResult | undefined;
    if (args.language_id) notReady = (await startAndMaybeWait(ctx, args.language_id, args)).notReady;
    startupMark('start_lsp server ready');
    const servers = (await ctx.workspace.liveConnections()).map(describeConnection);
    return { ...(notReady ?? { ready: true }), root, ...(detected ? { detected } : {}), servers, ...(scope.length ? { scope: scopeOutcome(scope, installed) } : {}) };
  },
  text: (r) => {
    const det = r.detected?.map((d) => `${d.language} (${d.files} files${d.installed ? '' : `, ${d.server} NOT INSTALLED — see agent-lsp doctor`})`).join(', ');
    const lines = [`Workspace: ${r.root}`];
    // Not counted when the call named its language (detect_lsp_servers counts them).
    if (r.detected) lines.push(`Languages found: ${det || 'none'}`);
    if ((r.servers ?? []).length) lines.push(`Servers:\n${serversText(r.servers ?? [])}`);
    else lines.push('Servers start on first use of a file of their language.');
    if (r.scope) lines.push(scopeText(r.scope));
    if (!r.ready) lines.push(notReadyText(r as NotReadyResult));
    return lines.join('\n');
  },
});

export const restartLspServer = defineTool({
  name: 'restart_lsp_server',
  title: 'Restart language server',
  description: 'Restarts a language server (or all), e.g. after installing packages.',
  group: 'lifecycle',
  input: () => ({
    root_dir: z.string().optional().describe('Switch to this root first.'),
    language_id: z.string().optional().describe('Only this language.'),
    ...readinessInput,
  }),
  output: () => ({ ...readyOutput, servers: z.array(serverOut).optional() }),
  annotations: { ...STATEFUL, idempotentHint: false },
  async handler(args, ctx) {
    if (args.root_dir) await ctx.workspace.setRoot(absoluteRootDir(args.root_dir));
    await ctx.workspace.ensureRoots(undefined, 'Call start_lsp with root_dir first, or pass root_dir.');
    const server = args.language_id ? ctx.workspace.registry.forLanguage(args.language_id) : undefined;
    const pidsBefore = new Map((await ctx.workspace.liveConnections()).map((c) => [c.server.id, c.pid]));
    const restarted = await ctx.workspace.restart(server);
    const describe = (conn: LspConnection): ServerOut => {
      const out = describeConnection(conn);
      const previous = pidsBefore.get(conn.server.id);
      if (previous !== undefined) out.previous_pid = previous;
      return out;
    };
    for (const conn of restarted) {
      const notReady = await awaitReady(conn, args, ctx);
      if (notReady) return { ...notReady, servers: restarted.map(describe) };
    }
    return { ready: true, servers: restarted.map(describe) };
  },
  text: (r) => ((r.servers ?? []).length ? `Restarted:\n${serversText(r.servers ?? [])}` : 'No server was running; servers start on first use.') + (r.ready ? '' : `\n${notReadyText(r as NotReadyResult)}`),
});

export const getServerCapabilities = defineTool({
  name: 'get_server_capabilities',
  title: 'Server capabilities',
  description: 'What a language server supports (for file_path or language_id).',
  group: 'lifecycle',
  input: () => ({
    file_path: z.string().optional().describe('A file of the server.'),
    language_id: z.string().optional().describe('Or: its language.'),
  }),
  output: () => ({
    ...readyOutput,
    server: z.string().optional(),
    version: z.string().optional(),
    capabilities: z.record(z.string(), z.unknown()).optional(),
    dynamic_registrations: z.array(z.string()).optional(),
    supported_requests: z.array(z.string()).optional(),
  }),
  annotations: { ...READ_ONLY },
  async handler(args, ctx) {
    await ctx.workspace.ensureRoots(args.file_path);
    let conn: LspConnection;
    if (args.language_id) conn = await ctx.workspace.connection(ctx.workspace.registry.forLanguage(args.language_id));
    else if (args.file_path) conn = await ctx.workspace.connection(ctx.workspace.registry.forFileOrThrow(ctx.workspace.resolveFile(args.file_path)).server);
    else conn = await onlyServer(ctx, 'pass file_path or language_id');
    const server = conn.server;
    const caps = conn.capabilities as Record<string, unknown>;
    const dynamic = [...new Set(conn.dynamicRegistrations().map((r) => r.method))];
    const supported = Object.entries(caps)
      .filter(([, v]) => v !== false && v !== undefined && v !== null)
      .map(([k]) => k)
      .concat(dynamic.map((m) => `${m} (dynamic)`));
    return { ready: true, server: conn.serverInfo?.name ?? server.displayName, ...(conn.serverInfo?.version ? { version: conn.serverInfo.version } : {}), capabilities: caps, dynamic_registrations: dynamic, supported_requests: supported };
  },
  text: (r) => `${r.server}${r.version ? ` ${r.version}` : ''} supports: ${(r.supported_requests ?? []).join(', ')}`,
});

export const detectLspServers = defineTool({
  name: 'detect_lsp_servers',
  title: 'Detect language servers',
  description: 'The languages in a directory and whether their servers are installed.',
  group: 'lifecycle',
  input: () => ({
    root_dir: z.string().optional().describe('Default: the workspace root.'),
    workspace_dir: z.string().optional().describe('Alias of root_dir.'),
  }),
  output: () => ({
    ...readyOutput,
    root: z.string().optional(),
    languages: z.array(z.object({ language: z.string(), server: z.string(), files: z.number(), installed: z.boolean(), command: z.array(z.string()).optional(), install_hint: z.string().optional() })).optional(),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    let root: string;
    if (args.root_dir !== undefined && args.workspace_dir !== undefined && args.root_dir !== args.workspace_dir) {
      throw new UserError('invalid_argument', 'root_dir and workspace_dir name the same thing: give one.');
    }
    const dir = args.root_dir ?? args.workspace_dir;
    if (dir) {
      root = absoluteRootDir(dir);
    } else {
      await ctx.workspace.ensureRoots(undefined, 'Call start_lsp with root_dir first, or pass root_dir.');
      root = ctx.workspace.primaryRoot as string;
    }
    const languages = (await detectLanguages(root, ctx.workspace.registry)).map((d) => {
      const resolved = d.server.resolve(root);
      return {
        language: d.server.languageIds.join('/'),
        server: d.server.displayName,
        files: d.files,
        installed: resolved !== undefined,
        ...(resolved ? { command: resolved.command } : { install_hint: d.server.installHint }),
      };
    });
    return { ready: true, root, languages };
  },
  text: (r) =>
    (r.languages ?? []).length === 0
      ? `No source files of a known language under ${r.root}.`
      : (r.languages ?? []).map((l) => `${l.language}: ${l.files} files, ${l.server} ${l.installed ? 'installed' : `missing — ${l.install_hint}`}`).join('\n'),
});

const foldersOutput = { ...readyOutput, folders: z.array(z.string()).optional() };

export const listWorkspaceFolders = defineTool({
  name: 'list_workspace_folders',
  title: 'List workspace folders',
  description: 'The workspace roots.',
  group: 'workspace',
  input: () => ({}),
  output: () => foldersOutput,
  annotations: READ_ONLY,
  handler: (_args, ctx) => Promise.resolve({ ready: true, folders: [...ctx.workspace.rootList] }),
  text: (r) => ((r.folders ?? []).length ? (r.folders ?? []).join('\n') : 'No workspace yet: call start_lsp.'),
});

export const addWorkspaceFolder = defineTool({
  name: 'add_workspace_folder',
  title: 'Add workspace folder',
  description: 'Adds a workspace root.',
  group: 'workspace',
  input: () => ({ path: z.string().describe('Absolute.') }),
  output: () => foldersOutput,
  annotations: STATEFUL,
  async handler(args, ctx) {
    return { ready: true, folders: await ctx.workspace.addFolder(args.path) };
  },
  text: (r) => `Workspace folders:\n${(r.folders ?? []).join('\n')}`,
});

export const removeWorkspaceFolder = defineTool({
  name: 'remove_workspace_folder',
  title: 'Remove workspace folder',
  description: 'Removes a workspace root.',
  group: 'workspace',
  input: () => ({ path: z.string().describe('Absolute.') }),
  output: () => foldersOutput,
  annotations: STATEFUL,
  async handler(args, ctx) {
    return { ready: true, folders: await ctx.workspace.removeFolder(args.path) };
  },
  text: (r) => `Workspace folders:\n${(r.folders ?? []).join('\n')}`,
});

export const lifecycleTools = [startLsp, restartLspServer, getServerCapabilities, detectLspServers, listWorkspaceFolders, addWorkspaceFolder, removeWorkspaceFolder];
