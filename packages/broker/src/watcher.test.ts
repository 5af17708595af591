import { spawn } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileEvent } from 'vscode-languageserver-protocol';
import { createLogger } from '@agent-lsp/lsp';
import { FileChangeType, pathToUri } from '@agent-lsp/protocol';
import { WorkspaceWatcher } from './watcher.js';
import { afterCurrentPoll } from './afterPoll.js';

describe('WorkspaceWatcher', () => {
  let root: string;
  let watcher: WorkspaceWatcher;
  let batches: FileEvent[][];
  const warnings: string[] = [];

  beforeEach(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-watch-')));
    batches = [];
    watcher = new WorkspaceWatcher({ root, logger: createLogger({ level: 'warn', sink: (l) => warnings.push(l) }), onChanges: (c) => void batches.push(c) });
    watcher.start();
    await new Promise((r) => setTimeout(r, 300)); // chokidar's initial scan
  });
  afterEach(() => {
    watcher.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  const seen = () => batches.flat().map((c) => c.uri);
  async function until(check: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  }

  it('reports files created by anything else, and ignores vendored and build directories', () => {
    for (const dir of ['node_modules/pkg', '.git', 'dist', '__pycache__']) expect(WorkspaceWatcher.isIgnored(root, join(root, dir, 'x.py'))).toBe(true);
    expect(WorkspaceWatcher.isIgnored(root, join(root, 'src', '.a.py.agent-lsp-12-abcd0123.tmp'))).toBe(true);
    expect(WorkspaceWatcher.isIgnored(root, join(root, 'src', 'builder.py'))).toBe(false);
    // The one list of directories nobody indexes (lsp's sourceTree): every dot-directory too.
    expect(WorkspaceWatcher.isIgnored(root, join(root, '.cache', 'x.py'))).toBe(true);
    expect(WorkspaceWatcher.isIgnored(root, join(root, 'target'), true)).toBe(true);
    expect(WorkspaceWatcher.isIgnored(root, join(root, 'build'), false)).toBe(false);
  });

  it('sends a batch for an outside write, but none for node_modules', async () => {
    mkdirSync(join(root, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(root, 'node_modules', 'pkg', 'index.js'), 'x');
    writeFileSync(join(root, 'a.py'), 'x = 1\n');
    await until(() => seen().includes(pathToUri(join(root, 'a.py'))));
    expect(seen()).toContain(pathToUri(join(root, 'a.py')));
    expect(seen().some((u) => u.includes('node_modules'))).toBe(false);
  });

  it("reports a library directory's entries, and a library directory made since it began following, but not one merely newly listed", async () => {
    const old = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-old-library-')));
    const made = join(root, 'node_modules');
    let dirs: string[] = [];
    try {
      watcher.followLibraries(() => dirs.filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory()));
      // Registered later (an existing site-packages): no news.
      dirs = [old, made];
      await watcher.flush();
      await new Promise((r) => setTimeout(r, 300)); // chokidar's initial scan of the library directory
      expect(seen()).toEqual([]);
      // Made after (the first npm install): news, and watched from then on.
      mkdirSync(made);
      await watcher.flush();
      expect(seen()).toEqual([pathToUri(made)]);
      writeFileSync(join(old, 'fancylib.py'), 'VALUE = 3\n');
      await until(() => seen().includes(pathToUri(join(old, 'fancylib.py'))));
      expect(seen()).toContain(pathToUri(join(old, 'fancylib.py')));
    } finally {
      rmSync(old, { recursive: true, force: true });
    }
  });

  it('defers events while paused (an exclusive section) and drops what a client already reported', async () => {
    watcher.pause();
    writeFileSync(join(root, 'held.py'), 'x = 1\n');
    writeFileSync(join(root, 'own.py'), 'x = 2\n');
    watcher.suppress(join(root, 'own.py'));
    await new Promise((r) => setTimeout(r, 500));
    expect(batches).toEqual([]);
    watcher.resume();
    await until(() => seen().length > 0);
    expect(seen()).toEqual([pathToUri(join(root, 'held.py'))]);
  });

  it('reports an outside write right after a write a client reported (only the echo is dropped)', async () => {
    const own = join(root, 'own.py');
    writeFileSync(own, 'x = 2\n');
    watcher.suppress(own);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen()).not.toContain(pathToUri(own));
    // Within the suppression window, someone else writes the same file.
    writeFileSync(own, 'x = 3\n');
    await until(() => seen().includes(pathToUri(own)));
    expect(seen()).toContain(pathToUri(own));
  });

  it('reports the next write of a file a flush already reported, though chokidar reports the first one only then', async () => {
    const file = join(root, 'edited.py');
    writeFileSync(file, 'x = 1\n');
    await until(() => seen().includes(pathToUri(file)));
    batches = [];
    // An agent's loop: write, query (the door flushes), write again, query.
    writeFileSync(file, 'x = 2\n');
    await watcher.flush();
    expect(seen()).toEqual([pathToUri(file)]);
    writeFileSync(file, 'x = 30\n');
    // chokidar's report of the first write arrives between the second write and the next query.
    const inner = (watcher as unknown as { watcher: EventEmitter }).watcher;
    inner.emit('change', file);
    await watcher.flush();
    expect(seen()).toEqual([pathToUri(file), pathToUri(file)]);
  });

  it('reports the deletion of a file a flush reported created, though chokidar never learnt of it', async () => {
    // chokidar is slow here: it has not read the new file when it is deleted again (a config file
    // created and removed between two queries), so only the flushes' own reports reach the server.
    const inner = (watcher as unknown as { watcher: EventEmitter & { getWatched(): Record<string, string[]> } }).watcher;
    const emit = inner.emit.bind(inner);
    inner.emit = (event: string | symbol, ...args: unknown[]) => (event === 'raw' || event === 'error' ? emit(event, ...args) : false);
    const getWatched = inner.getWatched.bind(inner);
    inner.getWatched = () => {
      const watched = getWatched();
      return { ...watched, [root]: (watched[root] ?? []).filter((name) => name !== 'config.json') };
    };
    const file = join(root, 'config.json');
    writeFileSync(file, '{}');
    await watcher.flush();
    rmSync(file);
    await watcher.flush();
    writeFileSync(file, '{"a": 1}');
    await watcher.flush();
    expect(batches.flat()).toEqual([
      { uri: pathToUri(file), type: FileChangeType.Created },
      { uri: pathToUri(file), type: FileChangeType.Deleted },
      { uri: pathToUri(file), type: FileChangeType.Created },
    ]);
  });

  it('reports the deletion of a file chokidar forgot on the OS\'s word but has not reported deleted yet', async () => {
    const file = join(root, 'known.py');
    writeFileSync(file, 'x = 1\n');
    await until(() => seen().includes(pathToUri(file)));
    batches = [];
    // What chokidar does on the OS's rename/unlink event: it drops the file from what it watches
    // at once, and reports the deletion only after a later stat.
    const inner = (watcher as unknown as { watcher: EventEmitter & { getWatched(): Record<string, string[]> } }).watcher;
    const emit = inner.emit.bind(inner);
    inner.emit = (event: string | symbol, ...args: unknown[]) => (event === 'raw' || event === 'error' ? emit(event, ...args) : false);
    const getWatched = inner.getWatched.bind(inner);
    inner.getWatched = () => {
      const watched = getWatched();
      return { ...watched, [root]: (watched[root] ?? []).filter((name) => name !== 'known.py') };
    };
    rmSync(file);
    await watcher.flush();
    expect(batches.flat()).toEqual([{ uri: pathToUri(file), type: FileChangeType.Deleted }]);
  });

  it('reports the files chokidar knew in a directory that was moved away, and those of its new name', async () => {
    const before = join(root, 'pkg', 'mod.py');
    mkdirSync(join(root, 'pkg'));
    writeFileSync(before, 'x = 1\n');
    await until(() => seen().includes(pathToUri(before)));
    batches = [];
    // The OS names the directory only; chokidar forgets its files at once.
    renameSync(join(root, 'pkg'), join(root, 'moved'));
    await watcher.flush();
    const after = join(root, 'moved', 'mod.py');
    expect(batches.flat()).toEqual(expect.arrayContaining([{ uri: pathToUri(before), type: FileChangeType.Deleted }, { uri: pathToUri(after), type: FileChangeType.Created }]));
    expect(batches.flat()).toHaveLength(2);
  });

  it('survives the system watch limit (ENOSPC) in a degraded mode', () => {
    const inner = (watcher as unknown as { watcher: EventEmitter }).watcher;
    inner.emit('error', Object.assign(new Error('watch limit'), { code: 'ENOSPC' }));
    expect(watcher.degraded).toBe(true);
    expect(warnings.join('\n')).toMatch(/file watching degraded \(ENOSPC/);
  });

  it('a flush given afterCurrentPoll() taken as a query is read delivers what another process wrote before sending it', async () => {
    // As in the broker: the query's bytes are read in a poll phase, the flush waits only for that
    // phase to end (no turns of its own). 40 rounds: write a new file, then ask at once. (Linux's
    // epoll usually hands the inotify event over before the bytes, in the same phase; the wait
    // covers the order it does not promise.)
    const socketPath = join(root, '..', `${root.split('/').pop()}.sock`);
    const rounds = 40;
    const missed: number[] = [];
    const server = createServer((socket) => {
      let round = 0;
      socket.on('data', (chunk) => {
        for (let i = 0; i < chunk.length; i++) {
          const n = round++;
          const delivered: FileEvent[] = [];
          void watcher
            .flush((changes) => void delivered.push(...changes), afterCurrentPoll())
            .then(() => {
              if (!delivered.some((c) => c.uri === pathToUri(join(root, `f${n}.py`)))) missed.push(n);
              socket.write('k');
            });
        }
      });
    });
    await new Promise<void>((r) => server.listen(socketPath, r));
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const net = require('net'), fs = require('fs'), path = require('path');
         const s = net.connect(process.argv[1]); let n = 0;
         const next = () => { if (n === ${rounds}) return s.end(); fs.writeFileSync(path.join(process.argv[2], 'f' + n++ + '.py'), 'x = 1\n'); s.write('q'); };
         s.on('connect', next); s.on('data', next);`,
        socketPath,
        root,
      ],
      { stdio: 'ignore' },
    );
    await new Promise((r) => writer.on('exit', r));
    await new Promise<void>((r) => server.close(() => r()));
    expect(missed).toEqual([]);
  });
});
