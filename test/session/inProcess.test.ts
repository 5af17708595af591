import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, ServerRegistry } from '@agent-lsp/lsp';
import { pathToUri } from '@agent-lsp/protocol';
import { createAgentLspServer, type AgentLspServer } from '@agent-lsp/server';
import { atomicFileWriter, readAuditTail, sequentialIds, steppingClock, type FileWriter } from '@agent-lsp/session';
import { FIXTURES } from '../helpers/paths.js';
import { scratchWorkspace, treeOf } from './workspaceCopy.js';

/** The real writer, except that while armed the Nth write fails. */
class FlakyWriter implements FileWriter {
  private countdown = 0;
  arm(failAt: number): void {
    this.countdown = failAt;
  }
  async write(path: string, data: Uint8Array, options?: Parameters<FileWriter['write']>[2]): Promise<void> {
    if (this.countdown > 0 && --this.countdown === 0) throw new Error(`injected failure writing ${path}`);
    await atomicFileWriter.write(path, data, options);
  }
  async remove(path: string, options?: Parameters<FileWriter['remove']>[1]): Promise<void> {
    await atomicFileWriter.remove(path, options);
  }
}

/**
 * The whole MCP server in this process, with an injected clock, id generator and file writer,
 * against real pyright: exact ids and times, and a write that fails on the third file.
 */
describe('write tools with an injected clock, ids and file writer', () => {
  const ws = scratchWorkspace(join(FIXTURES, 'python-basic'));
  const writer = new FlakyWriter();
  let server: AgentLspServer;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown>) => {
    const raw = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = raw.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    return { isError: raw.isError === true, text, data: (raw.structuredContent ?? {}) };
  };

  beforeAll(async () => {
    server = createAgentLspServer({
      registry: new ServerRegistry(),
      logger: createLogger({ level: 'error', sink: () => undefined }),
      ledger: { home: ws.home, writer, clock: steppingClock(new Date('2030-05-06T07:08:09.000Z'), 1000), ids: sequentialIds() },
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.mcp.connect(serverSide);
    client = new Client({ name: 'in-process-test', version: '0.0.0' });
    await client.connect(clientSide);
    expect((await call('start_lsp', { root_dir: ws.root, language_id: 'python' })).isError).toBe(false);
  });
  afterAll(async () => {
    await client.close();
    await server.close();
    ws.dispose();
  });

  it('rename_symbol that fails writing the third file changes no file, and the server still sees the disk', async () => {
    const before = treeOf(ws.root);
    writer.arm(3);
    const r = await call('rename_symbol', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(', new_name: 'span' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('injected failure');
    expect(treeOf(ws.root)).toEqual(before);
    const refs = await call('find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' });
    expect(refs.data).toMatchObject({ total: 6, files: 3 });
    expect((await call('list_checkpoints', {})).data).toMatchObject({ total: 0 });

    const [entry] = readAuditTail(join(ws.home, 'audit.jsonl'), 100).filter((e) => e.tool === 'rename_symbol');
    expect(entry).toMatchObject({ outcome: 'error', rolled_back: true, root: ws.root });
    expect(entry?.files.map((f) => f.slice(ws.root.length + 1)).sort()).toEqual(['app/broken.py', 'app/geometry.py', 'app/routes.py']);
  });

  it('execute_command takes the server\'s workspace/applyEdit into one checkpoint with exact id and time', async () => {
    const routes = join(ws.root, 'app', 'routes.py');
    const unsorted = await call('apply_edit', { file_path: 'app/routes.py', old_text: 'from app.geometry', new_text: 'import sys\nimport os\nfrom app.geometry' });
    expect(unsorted.data).toMatchObject({ checkpoint_id: 'cp_2' });
    const edited = readFileSync(routes, 'utf8');
    const r = await call('execute_command', { command: 'pyright.organizeimports', arguments: [pathToUri(routes)], file_path: 'app/routes.py' });
    expect(r.isError, r.text).toBe(false);
    expect(readFileSync(routes, 'utf8'), r.text).toMatch(/^import os\nimport sys\n/);
    // call_1 start_lsp, call_2 rename (cp_1, rolled back), call_3 find_references, call_4 list_checkpoints,
    // call_5 apply_edit (cp_2), call_6 this (cp_3).
    expect(r.data).toMatchObject({ applied: true, checkpoint_id: 'cp_3', files: [{ file: 'app/routes.py', change: 'modified' }] });
    const listed = await call('list_checkpoints', { limit: 1 });
    expect(listed.data['checkpoints']).toEqual([
      { id: 'cp_3', call_id: 'call_6', tool: 'execute_command', time: expect.stringMatching(/^2030-05-06T07:08:\d\d\.000Z$/), kind: 'write', files: [{ file: 'app/routes.py', change: 'modified' }] },
    ]);
    expect((await call('undo_last', {})).isError).toBe(false);
    expect(readFileSync(routes, 'utf8')).toBe(edited);
  });

  it('format_document returns edits without writing unless apply is true (or says the server cannot)', async () => {
    const r = await call('format_document', { file_path: 'app/routes.py' });
    // pyright has no formatter: the answer says so and nothing is written.
    expect(r.isError).toBe(true);
    expect(r.text).toContain('does not support format_document');
  });
});
