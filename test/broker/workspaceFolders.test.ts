// Workspace folders are per client: a folder one front adds never shows in another front's answers,
// and it leaves the shared server when the front that added it goes.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, closeFront, readyDaemon, readDaemonJson } from '../helpers/brokers.js';
import { ok, type AgentLspClient } from '../helpers/mcpClient.js';
import { waitUntil } from '../helpers/processes.js';

const scope = new BrokerTestScope();
afterEach(async () => {
  await scope.cleanup();
});

const SYMBOL = 'zebra_quokka_marker';

/** Polls an async condition (the condition decides, not a sleep). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The files find_symbol names for the unique symbol. */
async function symbolFiles(front: AgentLspClient): Promise<string[]> {
  const found = ok(await front.call('find_symbol', { query: SYMBOL }));
  return ((found['symbols'] as { name: string; file: string }[] | undefined) ?? []).filter((s) => s.name === SYMBOL).map((s) => s.file);
}

describe('workspace folders on a shared pyright broker', () => {
  it("keeps one front's added folder out of the other fronts' answers, and out of the server once that front exits", async () => {
    const root = scope.root('python-basic');
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-extra-folder-')));
    scope.dirs.push(folder);
    mkdirSync(join(folder, 'extra'));
    writeFileSync(join(folder, 'extra', 'marker.py'), `def ${SYMBOL}() -> int:\n    return 1\n`);
    const home = scope.home();

    const a = await scope.front(home);
    ok(await a.call('start_lsp', { root_dir: root }));
    ok(await a.call('add_workspace_folder', { path: folder }));
    // The front that added the folder finds the symbol in it (once the server has indexed it).
    let seen: string[] = [];
    await eventually(async () => (seen = await symbolFiles(a)).length > 0, `front A to find ${SYMBOL} in the folder it added`);
    // Shown relative to the folder, one of A's roots.
    expect(seen).toEqual(['extra/marker.py']);

    const b = await scope.front(home);
    ok(await b.call('start_lsp', { root_dir: root }));
    expect(await symbolFiles(b)).toEqual([]);
    // A still sees it: the filter is per client.
    expect((await symbolFiles(a)).length).toBeGreaterThan(0);

    const daemon = await readyDaemon(home, 'python');
    await closeFront(a);
    scope.fronts.splice(scope.fronts.indexOf(a), 1);
    await waitUntil(() => readDaemonJson(daemon.dir)?.clients === 1, 30_000, 'the broker to see front A leave');
    expect(await symbolFiles(b)).toEqual([]);
    // A newcomer, unfiltered (no client holds the folder any more), finds nothing: the server dropped it.
    const c = await scope.front(home);
    ok(await c.call('start_lsp', { root_dir: root }));
    expect(await symbolFiles(c)).toEqual([]);
  });
});
