import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { BIN, FIXTURES } from '../helpers/paths.js';
import { scratchWorkspace, treeOf } from './workspaceCopy.js';

/**
 * Writes A, B, C on a copy of the Python fixture with real pyright, then rolls back and forth:
 * files and diagnostics must come back exactly, from this front and from a new one.
 */
describe('checkpoints and rollback through the MCP tools, with pyright', () => {
  const ws = scratchWorkspace(join(FIXTURES, 'python-basic'));
  let agent: AgentLspClient;
  const ids: Record<string, string> = {};
  let afterA: Record<string, string>;
  let afterC: Record<string, string>;
  let diagnosticsAfterA: unknown;
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    calls++;
    return agent.call(name, args);
  };
  const diagnostics = async () => {
    const out: unknown[] = [];
    for (const f of ['app/routes.py', 'app/geometry.py', 'app/broken.py']) out.push(ok(await call('get_diagnostics', { file_path: f }))['diagnostics']);
    return out;
  };

  beforeAll(async () => {
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: ws.home } });
    ok(await call('start_lsp', { root_dir: ws.root, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent.close();
    ws.dispose();
  });

  it('lists the write tools with true annotations', async () => {
    const { tools } = await agent.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t.annotations]));
    for (const name of ['apply_edit', 'rename_symbol', 'format_document', 'format_range', 'execute_command', 'rollback_to', 'undo_last']) {
      // readOnlyHint false is MCP's default, left out of the listing (packages/server/src/listedAnnotations.ts).
      expect(byName.get(name), name).toMatchObject({ destructiveHint: true });
      expect(byName.get(name)?.readOnlyHint, name).not.toBe(true);
    }
    for (const name of ['list_checkpoints', 'checkpoint_diff']) expect(byName.get(name), name).toEqual({ readOnlyHint: true, openWorldHint: false });
  });

  it('writes A, B and C, each with a checkpoint', async () => {
    const a = ok(await call('apply_edit', { file_path: 'app/routes.py', old_text: '    return total', new_text: '    return totl' }));
    ids['A'] = String(a['checkpoint_id']);
    afterA = treeOf(ws.root);
    diagnosticsAfterA = await diagnostics();
    expect((diagnosticsAfterA as { message: string }[][])[0]?.map((d) => d.message)).toEqual(['"totl" is not defined']);

    const routes = pathToUri(join(ws.root, 'app', 'routes.py'));
    const geometry = pathToUri(join(ws.root, 'app', 'geometry.py'));
    const b = ok(await call('apply_edit', {
      workspace_edit: {
        changes: {
          [geometry]: [{ range: { start: { line: 11, character: 0 }, end: { line: 11, character: 0 } }, newText: 'LIMIT: int = "ten"\n\n\n' }],
          [routes]: [{ range: { start: { line: 4, character: 4 }, end: { line: 4, character: 15 } }, newText: 'total: str = 0.0' }],
        },
      },
    }));
    ids['B'] = String(b['checkpoint_id']);
    expect(b['files']).toEqual([{ file: 'app/geometry.py', change: 'modified' }, { file: 'app/routes.py', change: 'modified' }]);

    const extra = pathToUri(join(ws.root, 'app', 'extra.py'));
    const c = ok(await call('apply_edit', {
      workspace_edit: {
        documentChanges: [
          { kind: 'create', uri: extra },
          { textDocument: { uri: extra, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'from app.geometry import distance\nx: str = distance\n' }] },
          { textDocument: { uri: routes, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '# C\n' }] },
        ],
      },
    }));
    ids['C'] = String(c['checkpoint_id']);
    expect(c['files']).toEqual([{ file: 'app/extra.py', change: 'created' }, { file: 'app/routes.py', change: 'modified' }]);
    afterC = treeOf(ws.root);

    const listed = ok(await call('list_checkpoints', {}));
    expect((listed['checkpoints'] as { id: string }[]).map((x) => x.id)).toEqual([ids['C'], ids['B'], ids['A']]);
    const diff = ok(await call('checkpoint_diff', { checkpoint_id: ids['A'] }));
    expect(diff['diff']).toContain('-    return total\n+    return totl\n');
  });

  it('a dry run changes nothing', async () => {
    const dry = ok(await call('rollback_to', { checkpoint_id: ids['B'], dry_run: true }));
    expect(dry['files']).toEqual([
      { file: 'app/geometry.py', action: 'restore', changed_outside: false },
      { file: 'app/routes.py', action: 'restore', changed_outside: false },
      { file: 'app/extra.py', action: 'delete', changed_outside: false },
    ]);
    expect(treeOf(ws.root)).toEqual(afterC);
    expect(ok(await call('list_checkpoints', {}))['total']).toBe(3);
  });

  it('rollback_to before B gives the files and the diagnostics of after A; twice changes nothing', async () => {
    const r = ok(await call('rollback_to', { checkpoint_id: ids['B'], position: 'before' }));
    expect(r['undone']).toEqual([ids['B'], ids['C']]);
    ids['R'] = String(r['checkpoint_id']);
    expect(treeOf(ws.root)).toEqual(afterA);
    expect(existsSync(join(ws.root, 'app', 'extra.py'))).toBe(false);
    expect(await diagnostics()).toEqual(diagnosticsAfterA);

    const again = ok(await call('rollback_to', { checkpoint_id: ids['B'], position: 'before' }));
    expect(again['files']).toEqual([]);
    expect(again['checkpoint_id']).toBeUndefined();
    expect(treeOf(ws.root)).toEqual(afterA);
    expect(ok(await call('list_checkpoints', {}))['total']).toBe(4);
  });

  it('an outside edit blocks undo_last until force; undoing the rollback restores C', async () => {
    const geometry = join(ws.root, 'app', 'geometry.py');
    writeFileSync(geometry, readFileSync(geometry, 'utf8') + '# edited by hand\n');
    const handEdited = treeOf(ws.root);
    const refused = await call('undo_last', {});
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('app/geometry.py changed outside agent-lsp');
    expect(treeOf(ws.root)).toEqual(handEdited);

    const undo = ok(await call('undo_last', { force: true }));
    expect(undo['target']).toMatchObject({ id: ids['R'], kind: 'rollback' });
    expect(treeOf(ws.root)).toEqual(afterC);
  });

  it('a new front process lists the same checkpoints and can roll back', async () => {
    const before = ok(await call('list_checkpoints', {}))['checkpoints'];
    const other = await startAgentLsp({ env: { AGENT_LSP_HOME: ws.home } });
    try {
      const listed = ok(await other.call('list_checkpoints', { root_dir: ws.root }));
      expect(listed['checkpoints']).toEqual(before);
      ok(await other.call('rollback_to', { root_dir: ws.root, checkpoint_id: ids['A'], position: 'after' }));
      expect(treeOf(ws.root)).toEqual(afterA);
      // ...and that rollback is one more checkpoint every front sees.
      expect(ok(await call('list_checkpoints', {}))['total']).toBe((before as unknown[]).length + 1);
    } finally {
      await other.close();
    }
  });

  it('rename_symbol changes every file that uses the symbol; dry_run writes nothing', async () => {
    const start = treeOf(ws.root);
    const dry = ok(await call('rename_symbol', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(', new_name: 'span', dry_run: true }));
    expect(dry).toMatchObject({ dry_run: true, applied: false });
    expect((dry['files'] as { file: string }[]).map((f) => f.file).sort()).toEqual(['app/broken.py', 'app/geometry.py', 'app/routes.py']);
    expect(dry['workspace_edit']).toBeDefined();
    expect(treeOf(ws.root)).toEqual(start);

    const done = ok(await call('rename_symbol', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(', new_name: 'span' }));
    expect(done['applied']).toBe(true);
    for (const f of ['geometry.py', 'routes.py', 'broken.py']) {
      const text = readFileSync(join(ws.root, 'app', f), 'utf8');
      expect(text, f).toContain('span');
      expect(text, f).not.toMatch(/\bdistance\b/);
    }
    const refs = ok(await call('find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@span(' }));
    expect(refs).toMatchObject({ total: 6, files: 3 });
  });

  it('the audit log has one line per call', () => {
    const tail = spawnSync(process.execPath, [BIN, 'audit', 'tail', '-n', '1000', '--json', '--root', ws.root], { encoding: 'utf8', env: { ...process.env, AGENT_LSP_HOME: ws.home } });
    const entries = tail.stdout.trim().split('\n').map((l) => JSON.parse(l) as { tool: string; outcome: string; rolled_back: boolean });
    // This front's calls plus the other front's two.
    expect(entries).toHaveLength(calls + 2);
    expect(entries.filter((e) => e.outcome === 'error').map((e) => e.tool)).toEqual(['undo_last']);
  });
});
