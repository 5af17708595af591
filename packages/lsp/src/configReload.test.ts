import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResponseError } from 'vscode-jsonrpc/node';
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol';
import { DisposableStore, Emitter } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { CONFIG_RELOAD_FALLBACK_MS, watchPyrightConfig } from './configReload.js';
import { Readiness } from './readiness.js';

const ROOT = '/w';
const CONFIG = { uri: 'file:///w/pyrightconfig.json', type: FileChangeType.Created };

/** pyright as the reload watcher sees it: its log lines, and the requests it has read (answered by `readUpTo`). */
function pyrightLike() {
  const watched = new Emitter<readonly FileEvent[]>();
  const logs = new Emitter<{ type: number; message: string }>();
  const readiness = new Readiness();
  const unread: (() => void)[] = [];
  const conn = {
    readiness,
    workspaceFolders: [ROOT],
    server: { displayName: 'pyright' },
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    onWatchedFilesSent: watched.on.bind(watched),
    onLogMessage: logs.on.bind(logs),
    notify: () => undefined,
    // An unknown method: pyright answers it with an error once it has read it.
    request: () => new Promise((_, reject) => unread.push(() => reject(new ResponseError(-32601, 'Unhandled method')))),
  };
  const store = new DisposableStore();
  watchPyrightConfig({ conn: conn as unknown as LspConnection, store, later: (ms, fn) => void setTimeout(fn, ms), signalComing: () => undefined });
  readiness.ready();
  return {
    readiness,
    store,
    change: (type: FileChangeType) => watched.fire([{ ...CONFIG, type }]),
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

  it('answers again after the fallback when no load follows the change', async () => {
    pyright.change(FileChangeType.Changed);
    await pyright.readAll();
    await vi.advanceTimersByTimeAsync(CONFIG_RELOAD_FALLBACK_MS);
    expect(pyright.readiness.state).toBe('ready');
  });
});
