import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { BIN } from '../helpers/paths.js';
import { isAlive, waitUntil } from '../helpers/processes.js';
import { intentFiles, scratchWorkspace, treeOf } from './workspaceCopy.js';

const FILES = 60;
/** The front is held (and killed) after this many of its 60 writes. */
const WRITTEN = 20;
const name = (i: number) => `f${String(i).padStart(2, '0')}.txt`;

/** One apply_edit over all 60 files: each gets a first line. */
function sixtyFileEdit(root: string) {
  const changes: Record<string, unknown[]> = {};
  for (let i = 0; i < FILES; i++) changes[pathToUri(join(root, name(i)))] = [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: `edited ${i}\n` }];
  return { workspace_edit: { changes } };
}

/**
 * A front killed in the middle of a 60-file apply_edit, and a file the user edited after the crash:
 * recovery puts back what the dead transaction wrote, never what the user wrote since.
 */
describe('recovery of a transaction a killed front left half done', () => {
  let ws: ReturnType<typeof scratchWorkspace>;
  const agents: AgentLspClient[] = [];
  let original: Record<string, string>;

  beforeEach(() => {
    ws = scratchWorkspace();
    for (let i = 0; i < FILES; i++) writeFileSync(join(ws.root, name(i)), `file ${i}\n`);
    original = treeOf(ws.root);
  });
  afterEach(async () => {
    for (const a of agents.splice(0)) {
      await a.close().catch(() => undefined);
      if (isAlive(a.pid)) process.kill(a.pid, 'SIGKILL');
    }
    ws.dispose();
  });

  /** Starts the 60-file edit, kills the front after WRITTEN files, then the user edits one written file. */
  async function crashMidEdit(handEdited: string): Promise<void> {
    const a = await startAgentLsp({ env: { AGENT_LSP_HOME: ws.home }, hooks: { pauseAfterFiles: WRITTEN } });
    agents.push(a);
    ok(await a.call('start_lsp', { root_dir: ws.root }));
    const pending = a.call('apply_edit', sixtyFileEdit(ws.root)).catch(() => undefined);
    const written = () => Object.keys(original).filter((f) => readFileSync(join(ws.root, f), 'utf8').startsWith('edited')).length;
    await waitUntil(() => written() === WRITTEN, 30_000, `${WRITTEN} files to be written`);
    process.kill(a.pid, 'SIGKILL');
    await waitUntil(() => !isAlive(a.pid), 10_000, 'the front to die');
    await pending;
    expect(intentFiles(ws.home)).toHaveLength(1);
    expect(readFileSync(join(ws.root, handEdited), 'utf8')).toMatch(/^edited/);
    writeFileSync(join(ws.root, handEdited), 'the user wrote this after the crash\n');
  }

  it('keeps a file the user edited after the crash, rolls back the others, and says so with a checkpoint', async () => {
    const handEdited = name(3);
    await crashMidEdit(handEdited);

    const b = await startAgentLsp({ env: { AGENT_LSP_HOME: ws.home } });
    agents.push(b);
    const answer = await b.call('start_lsp', { root_dir: ws.root });
    expect(answer.isError, answer.text).toBe(false);
    expect(readFileSync(join(ws.root, handEdited), 'utf8')).toBe('the user wrote this after the crash\n');
    expect(treeOf(ws.root)).toEqual({ ...original, [handEdited]: Buffer.from('the user wrote this after the crash\n').toString('base64') });
    expect(intentFiles(ws.home)).toEqual([]);

    // The answer names the file left alone and the checkpoint that holds its earlier content.
    const listed = ok(await b.call('list_checkpoints', {}));
    expect(listed).toMatchObject({ total: 1, checkpoints: [{ tool: 'apply_edit', files: [{ file: handEdited, change: 'modified' }] }] });
    const checkpointId = String((listed['checkpoints'] as { id: string }[])[0]?.id);
    expect(answer.text).toContain(`Left as they are, because they changed after that call wrote them: ${handEdited};`);
    expect(answer.text).toContain(`checkpoint ${checkpointId}`);

    // Nothing is lost: rolling back to before that checkpoint gives the file's content before the call.
    ok(await b.call('rollback_to', { checkpoint_id: checkpointId, position: 'before' }));
    expect(treeOf(ws.root)).toEqual(original);
  });

  it('agent-lsp recover does the same and names the kept file', async () => {
    const handEdited = name(7);
    await crashMidEdit(handEdited);
    const r = spawnSync(process.execPath, [BIN, 'recover', '--root', ws.root], { encoding: 'utf8', env: { ...process.env, AGENT_LSP_HOME: ws.home } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`Left as they are, because they changed after that call wrote them: ${join(ws.root, handEdited)};`);
    expect(readFileSync(join(ws.root, handEdited), 'utf8')).toBe('the user wrote this after the crash\n');
    expect(readFileSync(join(ws.root, name(0)), 'utf8')).toBe('file 0\n');
    expect(intentFiles(ws.home)).toEqual([]);
  });

  it('a write refused because checkpoints.json is corrupt writes nothing and leaves no intent', async () => {
    const a = await startAgentLsp({ env: { AGENT_LSP_HOME: ws.home } });
    agents.push(a);
    ok(await a.call('start_lsp', { root_dir: ws.root }));
    ok(await a.call('apply_edit', { file_path: name(0), old_text: 'file 0', new_text: 'file zero' }));
    const stateDirs = readdirSync(join(ws.home, 'state', 'workspaces'));
    expect(stateDirs).toHaveLength(1);
    const checkpoints = join(ws.home, 'state', 'workspaces', stateDirs[0]!, 'checkpoints.json');
    writeFileSync(checkpoints, '{"schema": 7}');
    const before = treeOf(ws.root);

    const refused = await a.call('apply_edit', sixtyFileEdit(ws.root));
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('checkpoints.json');
    expect(treeOf(ws.root)).toEqual(before);
    expect(intentFiles(ws.home)).toEqual([]);
  });
});
