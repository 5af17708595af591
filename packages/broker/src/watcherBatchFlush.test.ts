import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { FileEvent } from 'vscode-languageserver-protocol';
import { createLogger } from '@agent-lsp/lsp';
import { pathToUri } from '@agent-lsp/protocol';
import { WorkspaceWatcher } from './watcher.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

it("a query's flush waits for the batch the timer is still delivering, so the server has heard of it before the query", async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-watch-batch-')));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const delivered: FileEvent[][] = [];
  let delivering = false;
  // A delivery that takes a while (the broker reads changed documents before it notifies the server).
  const watcher = new WorkspaceWatcher({
    root,
    logger: createLogger({ level: 'error', sink: () => undefined }),
    onChanges: async (changes) => {
      delivering = true;
      await held;
      delivered.push(changes);
    },
  });
  cleanup.push(() => {
    watcher.dispose();
    rmSync(root, { recursive: true, force: true });
  });
  watcher.start();
  await sleep(300); // chokidar's initial scan
  writeFileSync(join(root, 'restored.c'), 'int restored;\n');
  const deadline = Date.now() + 10_000;
  while (!delivering && Date.now() < deadline) await sleep(20);
  expect(delivering, 'the batch timer delivers the write').toBe(true);

  let flushed = false;
  const flushing = watcher.flush().then(() => (flushed = true));
  await sleep(300);
  // Before: the flush found nothing pending (the timer had taken it) and let the query go.
  expect(flushed, 'the flush waits for the delivery under way').toBe(false);
  release();
  await flushing;
  expect(delivered.flat().map((c) => c.uri)).toContain(pathToUri(join(root, 'restored.c')));
});
