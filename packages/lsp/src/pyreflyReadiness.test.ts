import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DisposableStore, Emitter } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { pyreflyReadiness } from './pyreflyReadiness.js';
import { Readiness } from './readiness.js';

/** The parts of a connection the family reads, pyrefly's stderr written by the test, its canary answered at once. */
function bench(pythonFiles: number) {
  const rootDir = mkdtempSync(join(tmpdir(), 'agent-lsp-pyrefly-ready-'));
  for (let i = 0; i < pythonFiles; i++) writeFileSync(join(rootDir, `m${i}.py`), 'x = 1\n');
  const conn = { rootDir, isAlive: true, readiness: new Readiness(), server: { extensions: { '.py': 'python', '.pyi': 'python' } }, request: () => Promise.resolve([]) };
  const stderr = new Emitter<string>();
  const timers: (() => void)[] = [];
  const store = new DisposableStore();
  pyreflyReadiness({ conn: conn as unknown as LspConnection, store, later: (_ms, fn) => timers.push(fn), signalComing: () => undefined, stderrLines: (l) => stderr.on(l) });
  const settled = () => new Promise((r) => setTimeout(r, 50));
  return {
    conn,
    write: async (...lines: string[]) => {
      for (const l of lines) stderr.fire(` INFO ${l}`);
      await settled();
    },
    elapse: async () => {
      await settled();
      for (const fn of timers.splice(0)) fn();
      await settled();
    },
    dispose: () => {
      store.dispose();
      rmSync(rootDir, { recursive: true, force: true });
    },
  };
}

describe('pyrefly readiness: its workspace index, told on stderr', () => {
  let b: ReturnType<typeof bench> | undefined;
  afterEach(() => b?.dispose());

  it('is not ready while it populates its index (its first answers are empty), ready and complete once it has', async () => {
    b = bench(3);
    await b.write('Populating up to 2000 files in the workspace ("/w").');
    await b.elapse();
    // Before: ready once the canary answered, while workspace/symbol still answered [].
    expect(b.conn.readiness.state).toBe('indexing');
    await b.write('Prepare to check 3 files.', 'Populated all files in the workspace, prepare to recheck open files.');
    expect(b.conn.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
  });

  it('is ready but partial when its walk found none of the workspace\'s files (a broken symbolic link stops it)', async () => {
    b = bench(2);
    await b.write('Populating up to 2000 files in the workspace ("/w").', 'Prepare to check 0 files.', 'Populated all files in the workspace, prepare to recheck open files.');
    const snap = b.conn.readiness.snapshot();
    expect(snap.ready).toBe(true);
    expect(snap.partial).toMatch(/holds 0 of the 2 Python files/);
  });

  it('is ready but partial when its walk stopped at its file limit', async () => {
    b = bench(3);
    await b.write('Populating up to 2 files in the workspace ("/w").', 'Prepare to check 2 files.', 'Populated all files in the workspace, prepare to recheck open files.');
    expect(b.conn.readiness.snapshot().partial).toMatch(/holds 2 of the 3\+ Python files under .*: it stops at 2 files/);
  });

  it('a pyrefly that never says it populates is ready once it answered and the wait for that line is over', async () => {
    b = bench(1);
    expect(b.conn.readiness.state).toBe('indexing');
    await b.elapse();
    expect(b.conn.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
  });
});
