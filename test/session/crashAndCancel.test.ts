import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { BIN } from '../helpers/paths.js';
import { isAlive, waitUntil } from '../helpers/processes.js';
import { intentFiles, scratchWorkspace, treeOf } from './workspaceCopy.js';


/** Creates new.txt, then edits one.txt and two.txt: a pause after file 2 holds it half done. */
function threeFileEdit(root: string) {
  const edit = (name: string, text: string) => ({
    textDocument: { uri: pathToUri(join(root, name)), version: null },
    edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: text }],
  });
  return {
    workspace_edit: {
      documentChanges: [
        { kind: 'create', uri: pathToUri(join(root, 'sub', 'new.txt')) },
        edit('sub/new.txt', 'created\n'),
        edit('one.txt', 'edited '),
        edit('two.txt', 'edited '),
      ],
    },
  };
}

describe('a transaction interrupted in the middle of its writes', () => {
  let ws: ReturnType<typeof scratchWorkspace>;
  const agents: AgentLspClient[] = [];
  let original: Record<string, string>;

  beforeEach(() => {
    ws = scratchWorkspace();
    writeFileSync(join(ws.root, 'one.txt'), 'one\r\nline two\n');
    writeFileSync(join(ws.root, 'two.txt'), Buffer.from([0x74, 0x77, 0x6f, 0xff, 0x0a]));
    original = treeOf(ws.root);
  });
  afterEach(async () => {
    for (const a of agents.splice(0)) {
      await a.close().catch(() => undefined);
      if (isAlive(a.pid)) process.kill(a.pid, 'SIGKILL');
    }
    ws.dispose();
  });

  it('is rolled back by the next front, before it answers anything, after a SIGKILL', async () => {
    const a = await startAgentLsp({ env: { AGENT_LSP_HOME: ws.home }, hooks: { pauseAfterFiles: 2 } });
    agents.push(a);
    ok(await a.call('start_lsp', { root_dir: ws.root }));
    const pending = a.call('apply_edit', threeFileEdit(ws.root)).catch(() => undefined);
    await waitUntil(() => readFileSync(join(ws.root, 'one.txt'), 'utf8').startsWith('edited'), 30_000, 'the second file to be written');
    expect(existsSync(join(ws.root, 'sub', 'new.txt'))).toBe(true);
    expect(intentFiles(ws.home)).toHaveLength(1);
    process.kill(a.pid, 'SIGKILL');
    await waitUntil(() => !isAlive(a.pid), 10_000, 'the front to die');
    await pending;
    expect(treeOf(ws.root)).not.toEqual(original);

    const b = await startAgentLsp({ env: { AGENT_LSP_HOME: ws.home } });
    agents.push(b);
    ok(await b.call('start_lsp', { root_dir: ws.root }));
    // The answer came after the restore: byte for byte, and the created file (and its dir) gone.
    expect(treeOf(ws.root)).toEqual(original);
    expect(existsSync(join(ws.root, 'sub'))).toBe(false);
    expect(intentFiles(ws.home)).toEqual([]);
    expect(ok(await b.call('list_checkpoints', {}))).toMatchObject({ total: 0 });
  });

  it('is rolled back when the MCP call is cancelled, and the audit log marks it', async () => {
    const auditLog = join(ws.dir, 'audit', 'calls.jsonl');
    const a = await startAgentLsp({ args: ['--audit-log', auditLog], env: { AGENT_LSP_HOME: ws.home }, hooks: { pauseAfterFiles: 2 } });
    agents.push(a);
    ok(await a.call('start_lsp', { root_dir: ws.root }));
    const controller = new AbortController();
    const pending = a.client.callTool({ name: 'apply_edit', arguments: threeFileEdit(ws.root) }, undefined, { signal: controller.signal }).catch((e: unknown) => e);
    await waitUntil(() => readFileSync(join(ws.root, 'one.txt'), 'utf8').startsWith('edited'), 30_000, 'the second file to be written');
    controller.abort();
    await pending;
    const lines = () => (existsSync(auditLog) ? readFileSync(auditLog, 'utf8').trim().split('\n') : []);
    await waitUntil(() => lines().length === 2, 30_000, 'the cancelled call in the audit log');
    expect(treeOf(ws.root)).toEqual(original);

    // The pause hook holds only the 2nd write of the process; this call goes through.
    const applied = ok(await a.call('apply_edit', { file_path: 'one.txt', old_text: 'line two', new_text: 'line 2' }));
    expect(applied).toMatchObject({ applied: true, files: [{ file: 'one.txt', change: 'modified' }] });
    expect(ok(await a.call('list_checkpoints', {}))).toMatchObject({ total: 1, checkpoints: [{ id: applied['checkpoint_id'], tool: 'apply_edit' }] });

    const tail = spawnSync(process.execPath, [BIN, 'audit', 'tail', '-n', '50', '--json', '--audit-log', auditLog, '--root', ws.root], { encoding: 'utf8' });
    expect(tail.status).toBe(0);
    const entries = tail.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e['tool'], e['outcome'], e['rolled_back']])).toEqual([
      ['start_lsp', 'ok', false],
      ['apply_edit', 'cancelled', true],
      ['apply_edit', 'ok', false],
      ['list_checkpoints', 'ok', false],
    ]);
    expect(entries[1]).toMatchObject({ files: [join(ws.root, 'sub', 'new.txt'), join(ws.root, 'one.txt'), join(ws.root, 'two.txt')] });
    expect(String(entries[1]?.['rollback_reason'])).toContain('cancelled');
    expect(entries[2]).toMatchObject({ checkpoint_id: applied['checkpoint_id'] });
  });
});
