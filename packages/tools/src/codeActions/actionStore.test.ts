import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LspConnection } from '@agent-lsp/lsp';
import { currentHash, unifiedDiff } from '@agent-lsp/session';
import { changedLines } from './actionEdit.js';
import { ACTION_IDS_KEPT, ActionStore } from './actionStore.js';

// The store only asks a connection whether it is alive and what its server is called.
function connection(alive: { value: boolean }): LspConnection {
  return { get isAlive() { return alive.value; }, server: { displayName: 'test-server' } } as unknown as LspConnection;
}

describe('the action store', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  function file(text: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-actions-'));
    dirs.push(dir);
    const path = join(dir, 'a.ts');
    writeFileSync(path, text);
    return path;
  }
  const label = (p: string) => `label(${p.split('/').pop() ?? p})`;

  it('gives back an action while its files read as they did, and refuses it as stale once one changed', () => {
    const store = new ActionStore();
    const path = file('one\n');
    const other = file('two\n');
    const stored = store.add({ conn: connection({ value: true }), path, action: { title: 'Fix it' }, hashes: new Map([[path, currentHash(path)]]) });
    store.noteFile(stored, other, currentHash(other));
    expect(store.take(stored.id, label).action.title).toBe('Fix it');
    writeFileSync(other, 'two, edited\n');
    expect(() => store.take(stored.id, label)).toThrow(/action_id fx1 is stale: label\(a\.ts\) changed since suggest_fixes offered it.*Call suggest_fixes again/);
    // Refused once, it is gone.
    expect(() => store.take(stored.id, label)).toThrow(/Unknown action_id fx1/);
  });

  it('refuses an id whose server restarted, and unknown ids', () => {
    const store = new ActionStore();
    const path = file('x\n');
    const alive = { value: true };
    const stored = store.add({ conn: connection(alive), path, action: { title: 'Fix it' }, hashes: new Map([[path, currentHash(path)]]) });
    alive.value = false;
    expect(() => store.take(stored.id, label)).toThrow(/test-server restarted/);
    expect(() => store.take('fx404', label)).toThrow(/Unknown action_id fx404: .*keeps the last 256/);
  });

  it('keeps only the newest ids', () => {
    const store = new ActionStore();
    const path = file('x\n');
    const ids = Array.from({ length: ACTION_IDS_KEPT + 5 }, () => store.add({ conn: connection({ value: true }), path, action: { title: 't' }, hashes: new Map() }).id);
    expect(() => store.take(ids[0] as string, label)).toThrow(/Unknown action_id/);
    expect(() => store.take(ids[4] as string, label)).toThrow(/Unknown action_id/);
    expect(store.take(ids[5] as string, label).id).toBe(ids[5]);
    expect(store.take(ids[ids.length - 1] as string, label).id).toBe(ids[ids.length - 1]);
  });
});

describe('the preview of an edit', () => {
  it('numbers removed lines as before and added lines as after, and counts what it leaves out', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join('\n') + '\n';
    const after = ['a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'].join('\n') + '\n';
    expect(changedLines(unifiedDiff('f', Buffer.from(before), Buffer.from(after)))).toEqual({ lines: ['-2 b', '+2 B', '+11 k'], more: 0 });
    const many = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const result = changedLines(unifiedDiff('f', Buffer.from(''), Buffer.from(many)));
    expect(result.lines).toHaveLength(8);
    expect(result.lines[0]).toBe('+1 line 0');
    expect(result.more).toBe(12);
  });
});
