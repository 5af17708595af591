// restart_lsp_server in daemon mode restarts the shared server in the broker, for every client.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerStatsRequest, BrokerStatusNotification, pathToUri, type BrokerStatusParams } from '@agent-lsp/protocol';
import { BrokerTestScope, EXPECTED_REFERENCES, PYTHON_DISTANCE, readDaemonJson, readyDaemon, referenceCount } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { isAlive, waitUntil } from '../helpers/processes.js';
import { rawClient, type RawClient } from '../helpers/rawBroker.js';

const scope = new BrokerTestScope();
let watcher: RawClient | undefined;

afterEach(async () => {
  watcher?.close();
  watcher = undefined;
  await scope.cleanup();
});

describe('restart_lsp_server through a broker', () => {
  it('replaces the shared server (not the broker); the other clients see it restart and keep getting answers', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const a = await scope.front(home);
    const b = await scope.front(home);
    ok(await a.call('start_lsp', { root_dir: root }));
    ok(await b.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(a, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    expect(await referenceCount(b, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const before = await readyDaemon(home, 'python');
    const oldServer = before.server.pid as number;
    // A third, plain LSP client shows what every client is told.
    watcher = await rawClient(before.socket, { canPull: false });
    // ... and holds a document of its own, which the new server must get too.
    const held = join(root, 'python-basic/app/broken.py');
    const heldUri = pathToUri(held);
    await watcher.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: heldUri, languageId: 'python', version: 1, text: readFileSync(held, 'utf8') } });
    expect(await watcher.rpc.sendRequest(BrokerStatsRequest.type)).toEqual(expect.objectContaining({ openDocuments: expect.arrayContaining([heldUri]) }));

    const answer = await a.call('restart_lsp_server', { language_id: 'python' });
    const servers = ok(answer)['servers'] as { pid?: number; previous_pid?: number; ready: boolean }[];
    expect(servers).toHaveLength(1);
    const restarted = servers[0];
    expect(restarted?.previous_pid).toBe(oldServer);
    expect(restarted?.pid).toEqual(expect.any(Number));
    expect(restarted?.pid).not.toBe(oldServer);
    expect(answer.text).toContain(`was ${oldServer}`);

    await waitUntil(() => readDaemonJson(before.dir)?.server.pid === restarted?.pid && readDaemonJson(before.dir)?.ready === true, 60_000, 'daemon.json to name the new, ready server');
    const after = readDaemonJson(before.dir);
    expect(after?.broker.pid).toBe(before.broker.pid);
    expect(after?.restarts).toBe(before.restarts + 1);
    await waitUntil(() => !isAlive(oldServer), 10_000, 'the old server to exit');

    expect(await watcher.rpc.sendRequest(BrokerStatsRequest.type)).toEqual(expect.objectContaining({ openDocuments: expect.arrayContaining([heldUri]) }));
    // The other front keeps working on the new server.
    expect(await referenceCount(b, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
    const statuses = watcher.notifications.filter((n) => n.method === BrokerStatusNotification.method).map((n) => n.params as BrokerStatusParams);
    const restarting = statuses.findIndex((s) => s.state === 'restarting' && !s.ready);
    expect(restarting).toBeGreaterThanOrEqual(0);
    expect(statuses.slice(restarting).some((s) => s.ready && s.serverPid === restarted?.pid)).toBe(true);
  });
});
