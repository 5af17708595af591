import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../helpers/mcpClient.js';
import { scratchWorkspace } from '../session/workspaceCopy.js';
import { startHttpFront, type HttpFront, type HttpSession } from './httpFront.js';

/**
 * Over HTTP each MCP session is its own agent: undo_last and list_checkpoints see that session's
 * calls, never another agent's write, unless the call crosses sessions explicitly (all_sessions,
 * or a checkpoint named by id). docs/http.md and docs/security.md say so.
 */
describe('serve --http: checkpoints are per session', () => {
  const ws = scratchWorkspace();
  let front: HttpFront;
  let a: HttpSession;
  let b: HttpSession;
  const read = (name: string) => readFileSync(join(ws.root, name), 'utf8');
  const ids = (r: Record<string, unknown>) => ((r['checkpoints'] ?? []) as { id: string }[]).map((c) => c.id);

  beforeAll(async () => {
    writeFileSync(join(ws.root, 'a.txt'), 'a original\n');
    writeFileSync(join(ws.root, 'b.txt'), 'b original\n');
    front = await startHttpFront(ws.home);
    a = await front.session();
    b = await front.session();
    ok(await a.call('start_lsp', { root_dir: ws.root }));
    ok(await b.call('start_lsp', { root_dir: ws.root }));
  });
  afterAll(async () => {
    await a?.close().catch(() => undefined);
    await b?.close().catch(() => undefined);
    await front?.stop();
    ws.dispose();
  });

  it("undo_last of one session never reverts another session's write", async () => {
    const first = ok(await a.call('apply_edit', { file_path: 'a.txt', old_text: 'a original', new_text: 'a by A' }));
    const nothing = await b.call('undo_last', {});
    expect(nothing.isError).toBe(true);
    expect(nothing.text).toContain('nothing to undo: no checkpoint made by this session');
    expect(read('a.txt')).toBe('a by A\n');

    const bWrite = ok(await b.call('apply_edit', { file_path: 'b.txt', old_text: 'b original', new_text: 'b by B' }));
    const second = ok(await a.call('apply_edit', { file_path: 'a.txt', old_text: 'a by A', new_text: 'a by A again' }));
    // B's undo takes back B's own write (the older one), not A's newer one.
    const undone = ok(await b.call('undo_last', {}));
    expect(undone['undone']).toEqual([bWrite['checkpoint_id']]);
    expect(read('b.txt')).toBe('b original\n');
    expect(read('a.txt')).toBe('a by A again\n');

    expect(ids(ok(await a.call('list_checkpoints', {})))).toEqual([second['checkpoint_id'], first['checkpoint_id']]);
    const bList = ok(await b.call('list_checkpoints', {}));
    expect(ids(bList)).toEqual([undone['checkpoint_id'], bWrite['checkpoint_id']]);
  });

  it('crosses sessions only when asked: all_sessions, or a checkpoint named by id', async () => {
    const all = ok(await b.call('list_checkpoints', { all_sessions: true }));
    expect(all['total']).toBe(4);
    const sessionsSeen = new Set(((all['checkpoints'] ?? []) as { session?: string }[]).map((c) => c.session));
    expect(sessionsSeen.size).toBe(2);

    const aNewest = ids(ok(await a.call('list_checkpoints', {})))[0];
    // Named by id, a checkpoint is on the workspace's one timeline: every later call is undone too.
    const rolled = ok(await b.call('rollback_to', { checkpoint_id: aNewest, position: 'before' }));
    expect((rolled['undone'] as string[])[0]).toBe(aNewest);
    expect(read('a.txt')).toBe('a by A\n');
  });
});
