import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node';
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DisposableStore, Emitter, pathToUri } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { CONFIG_RELOAD_FALLBACK_MS } from './configReload.js';
import { pyrightReadiness } from './pyrightReadiness.js';
import { Readiness } from './readiness.js';

const ROOT = '/w';
/** The interpreter's site-packages pyright registered a watcher for (libraryWatchTargets needs it on disk). */
const SITE_PACKAGES = mkdtempSync(join(tmpdir(), 'agent-lsp-site-packages-'));
const CONFIG = { uri: 'file:///w/pyrightconfig.json', type: FileChangeType.Created };

/**
 * pyright as its readiness family sees it (the first indexing and the reload watcher together):
 * its log lines, and the requests it has read (answered by `readAll`). `indexed`: its first
 * indexing has ended.
 */
function pyrightLike(indexed = true) {
  const watched = new Emitter<readonly FileEvent[]>();
  const logs = new Emitter<{ type: number; message: string }>();
  const refreshes = new Emitter<void>();
  const readiness = new Readiness();
  const unread: (() => void)[] = [];
  const conn = {
    readiness,
    workspaceFolders: [ROOT],
    server: { displayName: 'pyright' },
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    onWatchedFilesSent: watched.on.bind(watched),
    onLogMessage: logs.on.bind(logs),
    onDiagnosticsRefresh: refreshes.on.bind(refreshes),
    dynamicRegistrations: () => [{ id: 'w', method: 'workspace/didChangeWatchedFiles', registerOptions: { watchers: [{ globPattern: '**' }, { globPattern: { baseUri: pathToUri(SITE_PACKAGES), pattern: '**' } }] } }],
    notify: () => undefined,
    // An unknown method: pyright answers it with an error once it has read it.
    request: () => new Promise((_, reject) => unread.push(() => reject(new ResponseError(-32601, 'Unhandled method')))),
  };
  const store = new DisposableStore();
  pyrightReadiness({ conn: conn as unknown as LspConnection, store, later: (ms, fn) => void setTimeout(fn, ms), signalComing: () => undefined });
  if (indexed) logs.fire({ type: 3, message: 'Found 7 source files' });
  return {
    readiness,
    store,
    change: (type: FileChangeType) => watched.fire([{ ...CONFIG, type }]),
    /** Any other file changed on disk. */
    edit: (uri: string) => watched.fire([{ uri, type: FileChangeType.Changed }]),
    /** A package installed into the site-packages. */
    install: () => watched.fire([{ uri: pathToUri(join(SITE_PACKAGES, 'fancylib')), type: FileChangeType.Created }]),
    /** pyright asks clients to pull diagnostics again (it invalidated its analysis). */
    refresh: () => refreshes.fire(),
    log: (message: string) => logs.fire({ type: 3, message }),
    /** pyright reads every message sent so far. */
    readAll: async () => {
      unread.splice(0).forEach((answer) => answer());
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

describe('pyright configuration reload', () => {
  let pyright: ReturnType<typeof pyrightLike>;
  beforeEach(() => {
    vi.useFakeTimers();
    pyright = pyrightLike();
  });
  afterEach(() => {
    pyright.store.dispose();
    vi.useRealTimers();
  });

  it('is ready again at the "Found" line of a load that began after pyright read the change', async () => {
    pyright.change(FileChangeType.Created);
    expect(pyright.readiness.reloadingConfig).toBe(true);
    await pyright.readAll();
    pyright.log('Loading configuration file at /w/pyrightconfig.json');
    pyright.log('Found 7 source files');
    expect(pyright.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
  });

  it('is not ready at the "Found" line of a reload an earlier change began, nor ignores a change made during it', async () => {
    // The config file written (created, then changed a watcher batch later): pyright reloads.
    pyright.change(FileChangeType.Created);
    await pyright.readAll();
    pyright.log('Loading configuration file at /w/pyrightconfig.json');
    pyright.log('Found 7 source files');
    pyright.change(FileChangeType.Changed);
    await pyright.readAll();
    pyright.log('Reloading configuration file at /w/pyrightconfig.json');
    // Removed while that reload runs: pyright has not read the removal when the reload ends.
    pyright.change(FileChangeType.Deleted);
    pyright.log('Found 7 source files');
    expect(pyright.readiness.reloadingConfig).toBe(true);
    await pyright.readAll();
    pyright.log('Reloading configuration file at /w/pyrightconfig.json');
    pyright.log('Loading pyproject.toml file at /w/pyproject.toml');
    pyright.log('Found 8 source files');
    expect(pyright.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
  });

  it('is not ready at a "Found" line that comes before pyright has read a second write', async () => {
    pyright.change(FileChangeType.Changed);
    await pyright.readAll();
    pyright.log('Reloading configuration file at /w/pyrightconfig.json');
    // Written again while pyright reloads the first write.
    pyright.change(FileChangeType.Changed);
    pyright.log('Found 7 source files');
    await pyright.readAll();
    pyright.log('Found 7 source files');
    expect(pyright.readiness.reloadingConfig).toBe(true);
    pyright.log('Reloading configuration file at /w/pyrightconfig.json');
    pyright.log('Found 5 source files');
    expect(pyright.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
  });

  it('answers again after the fallback when no load follows the change', async () => {
    pyright.change(FileChangeType.Changed);
    await pyright.readAll();
    await vi.advanceTimersByTimeAsync(CONFIG_RELOAD_FALLBACK_MS);
    expect(pyright.readiness.state).toBe('ready');
  });

  describe('of its libraries (libraryReload.ts)', () => {
    it('a package installed into its site-packages: reloading until it asks for a refresh after reading the change', async () => {
      pyright.install();
      expect(pyright.readiness.snapshot()).toMatchObject({ state: 'indexing', ready: false });
      // A refresh from before pyright read the change (another cause) does not end it.
      pyright.refresh();
      expect(pyright.readiness.reloadingConfig).toBe(true);
      await pyright.readAll();
      pyright.refresh();
      expect(pyright.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
    });

    it('answers again after the fallback when no refresh comes', async () => {
      pyright.install();
      await pyright.readAll();
      await vi.advanceTimersByTimeAsync(CONFIG_RELOAD_FALLBACK_MS - 1);
      expect(pyright.readiness.reloadingConfig).toBe(true);
      await vi.advanceTimersByTimeAsync(1);
      expect(pyright.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
    });

    it('a source file of the workspace changed is no reload', () => {
      pyright.edit('file:///w/main.py');
      expect(pyright.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
    });
  });
});

describe('pyright configuration changed during its first indexing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is ready only at the "Found" line of a load begun after pyright read the change', async () => {
    const pyright = pyrightLike(false);
    pyright.log('Loading pyproject.toml file at /w/pyproject.toml');
    pyright.change(FileChangeType.Created);
    // The first indexing ends under the configuration it loaded before the change.
    pyright.log('Found 9 source files');
    expect(pyright.readiness.state).toBe('indexing');
    await pyright.readAll();
    pyright.log('Loading configuration file at /w/pyrightconfig.json');
    pyright.log('Found 7 source files');
    expect(pyright.readiness.snapshot()).toEqual({ state: 'ready', ready: true });
    pyright.store.dispose();
  });

  it('stays indexing after the fallback until its first "Found" line, when no load follows the change', async () => {
    const pyright = pyrightLike(false);
    pyright.change(FileChangeType.Changed);
    await pyright.readAll();
    await vi.advanceTimersByTimeAsync(CONFIG_RELOAD_FALLBACK_MS);
    expect(pyright.readiness.snapshot()).toMatchObject({ state: 'indexing' });
    expect(pyright.readiness.reloadingConfig).toBe(false);
    pyright.log('Found 7 source files');
    expect(pyright.readiness.state).toBe('ready');
    pyright.store.dispose();
  });
});
