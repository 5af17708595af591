import { UserError } from '@agent-lsp/protocol';
import type { LspConnection, ServerDefinition } from '@agent-lsp/lsp';
import { detectLanguages } from './languageDetection.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

/**
 * The server a call that names none is about, when there is only one it can be: the one running,
 * else (none running yet) the one server of the workspace's languages. Otherwise the caller must
 * say which, and the error names the candidates. `how` says what to pass instead, for the message.
 */
export async function onlyServer(ctx: ToolContext, how: string): Promise<LspConnection> {
  await ctx.workspace.ensureRoots(undefined, `Call start_lsp with root_dir first, or ${how}.`);
  const live = await ctx.workspace.liveConnections();
  const names = (servers: readonly ServerDefinition[]) => servers.map((s) => `${s.displayName} (${s.languageIds.join('/')})`).join(', ');
  if (live.length === 1) return live[0] as LspConnection;
  if (live.length > 1) throw new UserError('invalid_argument', `${live.length} language servers are running (${names(live.map((c) => c.server))}): ${how} to say which.`);
  const root = ctx.workspace.primaryRoot as string;
  const installed = (await detectLanguages(root, ctx.workspace.registry)).map((d) => d.server).filter((s) => s.resolve(root) !== undefined);
  if (installed.length === 1) return ctx.workspace.connection(installed[0] as ServerDefinition);
  if (installed.length === 0) throw new UserError('invalid_argument', `No language server is running and none is installed for the files under ${root}: ${how}.`);
  throw new UserError('invalid_argument', `No language server is running yet and the workspace has files of ${installed.length} (${names(installed)}): ${how} to say which.`);
}
