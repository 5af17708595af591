import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { startupMark } from '@agent-lsp/protocol';
import { createAgentLspServer, type AgentLspServerOptions } from './createServer.js';

/**
 * Serves MCP on stdin/stdout until the client goes away (stdin closes, SIGTERM, SIGINT); then
 * stops every language server it started and resolves.
 */
export async function serveStdio(options: AgentLspServerOptions): Promise<void> {
  const server = createAgentLspServer(options);
  const transport = new StdioServerTransport();
  let stopping: Promise<void> | undefined;
  const stop = (why: string) => {
    stopping ??= (async () => {
      options.logger.info(`shutting down (${why})`);
      await server.close();
    })();
    return stopping;
  };
  await server.mcp.connect(transport);
  startupMark('stdio listening');
  await new Promise<void>((resolve) => {
    const done = (why: string) => void stop(why).then(resolve);
    process.stdin.once('end', () => done('stdin closed'));
    process.stdin.once('close', () => done('stdin closed'));
    process.once('SIGTERM', () => done('SIGTERM'));
    process.once('SIGINT', () => done('SIGINT'));
    transport.onclose = () => done('transport closed');
  });
}
