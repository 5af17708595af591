// Direct mode has a watcher of its own (one per workspace, in the front); it lives and dies with
// the workspace's servers.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, ServerRegistry } from '@agent-lsp/lsp';
import { Workspace } from '@agent-lsp/workspace';
import { fixtureRoot } from '../helpers/brokers.js';
import { waitUntil } from '../helpers/processes.js';

/** fs.watch handles of this process (chokidar's watches). */
const watchHandles = () => process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;

describe('the front\'s watcher in direct mode', () => {
  let workspace: Workspace | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await workspace?.stopAll();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts with the first server the front runs itself and is gone, watches closed, when the servers stop', async () => {
    dir = fixtureRoot('python-basic');
    const root = join(dir, 'python-basic');
    const ws = new Workspace({ registry: new ServerRegistry(), logger: createLogger({ level: 'error', sink: () => undefined }) });
    workspace = ws;
    const before = watchHandles();
    await ws.setRoot(root);
    expect(ws.watching).toBe('off');
    const handle = await ws.shared(() => ws.openDocument(join(root, 'app', 'geometry.py')));
    expect(handle.doc.disk).toBeDefined();
    expect(ws.watching).toBe('on');
    await waitUntil(() => watchHandles() > before, 10_000, 'chokidar to watch the root');
    await ws.stopAll();
    expect(ws.watching).toBe('off');
    await waitUntil(() => watchHandles() === before, 10_000, 'every watch to be closed');
  });
});
