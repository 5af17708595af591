import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createLogger, ServerRegistry } from '@agent-lsp/lsp';
import { createAgentLspServer, type AgentLspServer } from '@agent-lsp/server';
import type { FileWriter } from '@agent-lsp/session';

export interface ToolAnswer {
  isError: boolean;
  text: string;
  data: Record<string, unknown>;
}

export interface InProcessAgent {
  call(name: string, args: Record<string, unknown>): Promise<ToolAnswer>;
  close(): Promise<void>;
}

/** The whole MCP server in this process (direct mode), with a private state home and optionally an injected writer. */
export async function startInProcessAgent(options: { home: string; writer?: FileWriter }): Promise<InProcessAgent> {
  const server: AgentLspServer = createAgentLspServer({
    registry: new ServerRegistry(),
    logger: createLogger({ level: 'error', sink: () => undefined }),
    ledger: { home: options.home, ...(options.writer ? { writer: options.writer } : {}) },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.mcp.connect(serverSide);
  const client = new Client({ name: 'in-process-test', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    async call(name, args) {
      const raw = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = raw.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
      return { isError: raw.isError === true, text, data: raw.structuredContent ?? {} };
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}
