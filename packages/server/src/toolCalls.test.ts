import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, READ_ONLY, type AnyToolDefinition } from '@agent-lsp/tools';
import { serveToolCalls } from './toolCalls.js';

/** A tool whose shapes count how often they are built; it echoes `count`, or answers `bad` off its output schema. */
function countingTool(name: string, built: { input: number; output: number }): AnyToolDefinition {
  return defineTool({
    name,
    title: name,
    description: name,
    group: 'navigation',
    annotations: READ_ONLY,
    input: () => {
      built.input++;
      return { count: z.number().int().min(1).describe('How many.'), bad: z.boolean().optional() };
    },
    output: () => {
      built.output++;
      return { ready: z.boolean(), count: z.number().optional() };
    },
    handler: (args) => Promise.resolve({ ready: true, count: args.count }),
    text: (r) => String(r.count),
  });
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function connected(server: McpServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  closers.push(() => client.close(), () => server.close());
  return client;
}

/** Our handler, with a runner that answers like runTool (structured content and text), `bad` off the output schema. */
async function lazyServer(tools: Map<string, AnyToolDefinition>, calls: string[] = []): Promise<Client> {
  const mcp = new McpServer({ name: 't', version: '0' }, { capabilities: { tools: {} } });
  serveToolCalls(mcp, tools, async (def, args) => {
    calls.push(def.name);
    const structured = args['bad'] ? { ready: 'yes' } : await def.handler(args, undefined as never);
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  });
  return connected(mcp);
}

/** The same tool through McpServer.registerTool: what the SDK's own handler answers. */
async function sdkServer(def: AnyToolDefinition): Promise<Client> {
  const mcp = new McpServer({ name: 't', version: '0' }, { capabilities: { tools: {} } });
  mcp.registerTool(def.name, { description: def.description, inputSchema: def.input, outputSchema: def.output }, async (args: Record<string, unknown>) => {
    const structured = args['bad'] ? { ready: 'yes' } : await def.handler(args, undefined as never);
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  });
  return connected(mcp);
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => (r.content[0]?.type === 'text' ? r.content[0].text : '');

describe('serveToolCalls', () => {
  it('builds a tool\'s schemas on its first call, once, and never those of a tool not called', async () => {
    const a = { input: 0, output: 0 };
    const b = { input: 0, output: 0 };
    const toolA = countingTool('tool_a', a);
    const client = await lazyServer(new Map([['tool_a', toolA], ['a', toolA], ['tool_b', countingTool('tool_b', b)]]));
    expect(a).toEqual({ input: 0, output: 0 });
    expect((await call(client, 'tool_a', { count: 2 })).structuredContent).toEqual({ ready: true, count: 2 });
    // An alias runs the same tool, with the same schemas.
    expect((await call(client, 'a', { count: 3 })).structuredContent).toEqual({ ready: true, count: 3 });
    expect(a).toEqual({ input: 1, output: 1 });
    expect(b).toEqual({ input: 0, output: 0 });
  });

  it('rejects bad arguments before running the tool, with the SDK handler\'s error result', async () => {
    const calls: string[] = [];
    const client = await lazyServer(new Map([['tool_a', countingTool('tool_a', { input: 0, output: 0 })]]), calls);
    const sdk = await sdkServer(countingTool('tool_a', { input: 0, output: 0 }));
    for (const args of [{ count: 0 }, { count: 'two' }, {}, { count: 1.5, bad: 'no' }]) {
      const ours = await call(client, 'tool_a', args);
      expect(ours.isError).toBe(true);
      expect(text(ours)).toMatch(/^MCP error -32602: Input validation error: Invalid arguments for tool tool_a: .*count/);
      expect(ours).toEqual(await call(sdk, 'tool_a', args));
    }
    expect(calls).toEqual([]);
  });

  it('answers an unknown tool and a result off the output schema as the SDK does', async () => {
    const client = await lazyServer(new Map([['tool_a', countingTool('tool_a', { input: 0, output: 0 })]]));
    const sdk = await sdkServer(countingTool('tool_a', { input: 0, output: 0 }));
    const unknown = await call(client, 'nope', {});
    expect(text(unknown)).toBe('MCP error -32602: Tool nope not found');
    expect(unknown).toEqual(await call(sdk, 'nope', {}));
    const off = await call(client, 'tool_a', { count: 1, bad: true });
    expect(off.isError).toBe(true);
    expect(text(off)).toMatch(/^MCP error -32602: Output validation error: Invalid structured content for tool tool_a: /);
    expect(off).toEqual(await call(sdk, 'tool_a', { count: 1, bad: true }));
  });
});
