// safe_apply_edit (judged by a speculative evaluation on the real server, written only when it adds
// at most max_net_delta errors) and did_change_watched_files, against typescript-language-server
// and pyright on private copies of the fixtures.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

interface Diag {
  file: string;
  line: number;
  severity: string;
  message: string;
}

const SQUARE = 'return this.side * this.side;';

describe('safe_apply_edit and did_change_watched_files with real servers', () => {
  let dir: string;
  let agent: AgentLspClient;
  const file = (rel: string) => join(dir, rel);
  const read = (rel: string) => readFileSync(file(rel), 'utf8');

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-safe-edit-')));
    cpSync(join(FIXTURES, 'ts-basic'), join(dir, 'ts'), { recursive: true });
    cpSync(join(FIXTURES, 'python-basic'), join(dir, 'py'), { recursive: true });
    // Generated code in an output directory the watchers ignore (out/): only a caller that knows it changed can say so.
    mkdirSync(file('py/out'));
    writeFileSync(file('py/out/generated.py'), 'LIMIT: int = 3\n');
    writeFileSync(file('py/app/uses_generated.py'), 'from out.generated import LIMIT\n\n\ndef limit() -> int:\n    return LIMIT\n');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: dir }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes an edit that introduces no error (checkpointed), and undo_last takes it back', async () => {
    const before = read('ts/src/shapes.ts');
    const data = ok(await agent.call('safe_apply_edit', { file_path: 'ts/src/shapes.ts', old_text: SQUARE, new_text: 'return this.side ** 2;' }));
    expect(data).toMatchObject({ applied: true, net_delta: 0, errors_introduced: [], max_net_delta: 0, files: [{ file: 'ts/src/shapes.ts', change: 'modified' }] });
    expect(data['refused']).toBeUndefined();
    expect(read('ts/src/shapes.ts')).toBe(before.replace(SQUARE, 'return this.side ** 2;'));
    ok(await agent.call('undo_last', {}));
    expect(read('ts/src/shapes.ts')).toBe(before);
  });

  it('refuses an edit that introduces an error: nothing written, the error it would introduce reported', async () => {
    const before = read('ts/src/shapes.ts');
    const answer = await agent.call('safe_apply_edit', { file_path: 'ts/src/shapes.ts', old_text: SQUARE, new_text: 'return "wrong";' });
    expect(answer.isError).toBe(false);
    const data = answer.data;
    expect(data).toMatchObject({ applied: false, net_delta: 1, max_net_delta: 0, files: [] });
    expect(data['refused']).toMatch(/\+1, more than max_net_delta 0/);
    const introduced = data['errors_introduced'] as Diag[];
    expect(introduced).toEqual([expect.objectContaining({ file: 'ts/src/shapes.ts', line: 15, severity: 'error', message: "Type 'string' is not assignable to type 'number'." })]);
    expect(answer.text).toMatch(/^Refused, nothing written/);
    expect(read('ts/src/shapes.ts')).toBe(before);
  });

  it('honours max_net_delta: the same edit is written when one new error is allowed', async () => {
    const before = read('ts/src/shapes.ts');
    const data = ok(await agent.call('safe_apply_edit', { file_path: 'ts/src/shapes.ts', old_text: SQUARE, new_text: 'return "wrong";', max_net_delta: 1 }));
    expect(data).toMatchObject({ applied: true, net_delta: 1, max_net_delta: 1, checkpoint_id: expect.any(String) });
    expect(read('ts/src/shapes.ts')).toBe(before.replace(SQUARE, 'return "wrong";'));
    ok(await agent.call('undo_last', {}));
    expect(read('ts/src/shapes.ts')).toBe(before);
  });

  it('takes a WorkspaceEdit: a Python fix that resolves an error is written', async () => {
    const before = read('py/app/broken.py');
    const uri = pathToFileURL(file('py/app/broken.py')).href;
    // count: int = "three"  →  count: int = 3   (line 3, 0-based 2; "three" with its quotes at characters 13–20)
    const edit = { changes: { [uri]: [{ range: { start: { line: 2, character: 13 }, end: { line: 2, character: 20 } }, newText: '3' }] } };
    const data = ok(await agent.call('safe_apply_edit', { workspace_edit: edit }));
    expect(data).toMatchObject({ applied: true, net_delta: -1, errors_introduced: [] });
    expect((data['errors_resolved'] as Diag[]).map((d) => d.line)).toEqual([3]);
    expect(read('py/app/broken.py')).toBe(before.replace('count: int = "three"', 'count: int = 3'));
    ok(await agent.call('undo_last', {}));
    expect(read('py/app/broken.py')).toBe(before);
  });

  it('bad input changes nothing: text not found, both forms, a path outside the roots', async () => {
    const before = read('ts/src/shapes.ts');
    const missing = await agent.call('safe_apply_edit', { file_path: 'ts/src/shapes.ts', old_text: 'no such text', new_text: 'x' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/old_text does not occur in ts\/src\/shapes\.ts/);
    const both = await agent.call('safe_apply_edit', { file_path: 'ts/src/shapes.ts', old_text: SQUARE, new_text: 'x', workspace_edit: { changes: {} } });
    expect(both.isError).toBe(true);
    expect(both.text).toMatch(/either workspace_edit, or file_path/);
    const uri = pathToFileURL(file('ts/src/shapes.ts')).href;
    const malformed = await agent.call('safe_apply_edit', { workspace_edit: { changes: { [uri]: [{ range: { start: { line: 0 } }, newText: 'x' }] } } });
    expect(malformed.isError).toBe(true);
    expect(malformed.text).toMatch(/workspace_edit\.changes\..*Each edit is \{range: \{start: \{line, character\}/);
    const pastEnd = await agent.call('safe_apply_edit', { workspace_edit: { changes: { [uri]: [{ range: { start: { line: 90, character: 0 }, end: { line: 90, character: 1 } }, newText: 'x' }] } } });
    expect(pastEnd.isError).toBe(true);
    expect(pastEnd.text).toMatch(/position 90:0 .* is past the end of ts\/src\/shapes\.ts, which has 22 line\(s\)/);
    const fraction = await agent.call('safe_apply_edit', { file_path: 'ts/src/shapes.ts', old_text: SQUARE, new_text: 'x', max_net_delta: 0.5 });
    expect(fraction.isError).toBe(true);
    expect(fraction.text).toMatch(/max_net_delta must be a whole number/);
    const outsideDir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-outside-')));
    try {
      writeFileSync(join(outsideDir, 'x.ts'), 'export const a = 1;\n');
      const outside = await agent.call('safe_apply_edit', { file_path: join(outsideDir, 'x.ts'), old_text: 'a = 1', new_text: 'a = 2' });
      expect(outside.isError).toBe(true);
      expect(outside.text).toMatch(/outside the workspace/);
      expect(readFileSync(join(outsideDir, 'x.ts'), 'utf8')).toBe('export const a = 1;\n');
      const watched = await agent.call('did_change_watched_files', { changes: [{ file_path: join(outsideDir, 'x.ts'), type: 'changed' }] });
      expect(watched.isError).toBe(true);
      expect(watched.text).toMatch(/outside the workspace/);
    } finally {
      rmSync(outsideDir, { recursive: true, force: true });
    }
    expect(read('ts/src/shapes.ts')).toBe(before);
  });

  it('did_change_watched_files: a change no watcher reports reaches pyright, and the importer\'s diagnostics change', async () => {
    const errors = async () => (ok(await agent.call('get_diagnostics', { file_path: 'py/app/uses_generated.py' }))['diagnostics'] as Diag[]).filter((d) => d.severity === 'error');
    expect(await errors()).toEqual([]);
    // The generator renames the constant; out/ is not watched, so pyright still has the old module.
    writeFileSync(file('py/out/generated.py'), 'MAX_ITEMS: int = 3\n');
    expect(await errors()).toEqual([]);
    const told = ok(await agent.call('did_change_watched_files', { changes: [{ file_path: 'py/out/generated.py', type: 'changed' }] }));
    expect(told).toMatchObject({ files: [{ file: 'py/out/generated.py', type: 'changed' }] });
    expect((told['servers'] as number) >= 1).toBe(true);
    const after = await errors();
    expect(after.map((d) => d.message)).toContainEqual(expect.stringMatching(/"LIMIT" is unknown import symbol/));

    // Gone from disk: reported as deleted whatever the caller said, and the import no longer resolves.
    rmSync(file('py/out/generated.py'));
    // The original agent-lsp's form: a file:// uri and LSP's FileChangeType number (2: changed).
    const gone = ok(await agent.call('did_change_watched_files', { changes: [{ uri: pathToFileURL(file('py/out/generated.py')).href, type: 2 }] }));
    expect(gone['files']).toEqual([{ file: 'py/out/generated.py', type: 'deleted' }]);
    const nameless = await agent.call('did_change_watched_files', { changes: [{ type: 1 }] });
    expect(nameless.isError).toBe(true);
    expect(nameless.text).toMatch(/changes\[0\] names no file: give file_path \(or uri\)/);
    expect((await errors()).map((d) => d.message)).toContainEqual(expect.stringMatching(/Import "out\.generated" could not be resolved/));
  });
});
