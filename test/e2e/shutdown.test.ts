import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ChildTransport } from '../helpers/childTransport.js';
import { FIXTURES } from '../helpers/paths.js';
import { descendants, isAlive, waitUntil } from '../helpers/processes.js';

/** Starts a front with a Python and a TypeScript server running; returns their process tree. */
async function frontWithServers(): Promise<{ transport: ChildTransport; client: Client; tree: number[] }> {
  const transport = new ChildTransport();
  const client = new Client({ name: 'shutdown-test', version: '0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    if (r.isError) throw new Error(JSON.stringify(r.content));
  };
  await call('start_lsp', { root_dir: FIXTURES });
  await call('find_references', { file_path: 'python-basic/app/geometry.py', position_pattern: 'def @@distance(' });
  await call('find_references', { file_path: 'ts-basic/src/shapes.ts', position_pattern: 'function @@totalArea' });
  const tree = descendants(transport.child.pid as number);
  return { transport, client, tree };
}

describe('when the MCP client goes away, the front stops its servers and exits', () => {
  let leftovers: number[] = [];
  afterEach(() => {
    // Never leave processes behind, even when an assertion failed.
    for (const pid of leftovers) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    leftovers = [];
  });

  for (const how of ['stdin closes', 'SIGTERM', 'SIGINT'] as const) {
    it(`on ${how}`, async () => {
      const { transport, tree } = await frontWithServers();
      const pid = transport.child.pid as number;
      leftovers = [pid, ...tree];
      // pyright, typescript-language-server and its tsserver at least
      expect(tree.length).toBeGreaterThanOrEqual(3);
      if (how === 'stdin closes') await transport.close();
      else transport.child.kill(how);
      const exit = await transport.exited;
      expect(exit).toEqual({ code: 0, signal: null });
      await waitUntil(() => tree.every((p) => !isAlive(p)), 10_000, 'every language server process to end');
      expect(tree.filter(isAlive)).toEqual([]);
    });
  }
});
