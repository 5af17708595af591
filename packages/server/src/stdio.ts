import { startupMark } from '@agent-lsp/protocol';
import { createAgentLspServer, type AgentLspServerOptions } from './createServer.js';
import { LineStdioTransport } from './stdioTransport.js';

/**
 * Serves MCP on stdin/stdout until the client goes away (stdin closes, SIGTERM, SIGINT); then
 * stops every language server it started and resolves.
 */
export async function serveStdio(options: AgentLspServerOptions): Promise<void> {
  const server = createAgentLspServer(options);
  const transport = new LineStdioTransport();
  // A line that is not a message, or one too large, is the client's error: said on stderr, and served on.
  transport.onerror = (err) => options.logger.warn(`stdin: ${err.message}`);
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
