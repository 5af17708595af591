// A paired server (the Vue pair: vtsls and vue-language-server) is two children of its broker:
// both pids are reported wherever a server's pid is, its memory counts both, a restart reports the
// new pair's, and daemon-stop leaves neither behind (the scope's cleanup checks that).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { vueServer } from '@agent-lsp/lsp';
import { afterAll, describe, expect, it } from 'vitest';
import { BrokerTestScope, readyDaemon } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

const resolved = vueServer.resolve(join(FIXTURES, 'languages', 'vue'));
const title = resolved ? 'the Vue pair through a broker: both pids' : `the Vue pair through a broker: not run (${vueServer.installHint})`;
if (!resolved) console.warn(title);

const scope = new BrokerTestScope();
afterAll(() => scope.cleanup());

function cmdline(pid: number | undefined): string {
  try {
    return pid === undefined ? '' : readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

interface ServerOut {
  pid?: number;
  companion_pid?: number;
  previous_pid?: number;
}

describe.skipIf(!resolved)(title, () => {
  it('start_lsp, get_daemon_status and daemon.json name vtsls and vue-language-server; restart_lsp_server the new two', async () => {
    const home = scope.home();
    const root = join(scope.root('languages/vue'), 'languages', 'vue');
    const front = await scope.front(home);
    const started = ok(await front.call('start_lsp', { root_dir: root, language_id: 'vue', ready_timeout_seconds: 120 }));
    const server = ((started['servers'] ?? []) as ServerOut[])[0];
    expect(cmdline(server?.pid)).toContain('vtsls');
    expect(cmdline(server?.companion_pid)).toContain('vue-language-server');

    const info = await readyDaemon(home, 'vue');
    expect(info.server).toMatchObject({ pid: server?.pid, companionPid: server?.companion_pid });
    const status = await front.call('get_daemon_status', {});
    expect(ok(status)['daemons']).toEqual([expect.objectContaining({ root, server_pid: server?.pid, companion_pid: server?.companion_pid, rss_mib: expect.any(Number) })]);
    expect(status.text).toContain(`pid ${server?.pid}, companion pid ${server?.companion_pid}`);

    const restarted = ok(await front.call('restart_lsp_server', { language_id: 'vue', ready_timeout_seconds: 120 }));
    const now = ((restarted['servers'] ?? []) as ServerOut[])[0];
    expect(now?.previous_pid).toBe(server?.pid);
    expect(cmdline(now?.pid)).toContain('vtsls');
    expect(cmdline(now?.companion_pid)).toContain('vue-language-server');
    expect([now?.pid, now?.companion_pid]).not.toContain(server?.companion_pid);
    expect(now?.pid).not.toBe(server?.pid);
  });
});
