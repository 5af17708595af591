import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrokerStats } from '@agent-lsp/protocol';
import { BrokerTestScope, brokerTree, daemonsByLanguage, EXPECTED_REFERENCES, PYRIGHT, PYTHON_DISTANCE, readyDaemon, serverPids } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { descendants, isAlive, waitUntil } from '../helpers/processes.js';
import { rawClient, type RawClient } from '../helpers/rawBroker.js';
import { startHttpFront, type HttpFront, type HttpSession } from './httpFront.js';

const FILE = 'python-basic/app/geometry.py';
const EDIT = { file_path: FILE, start_line: 13, start_column: 1, end_line: 14, end_column: 1, new_text: '    return "wrong"\n' };

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('serve --http: many agents on one process', () => {
  const scope = new BrokerTestScope();
  const fronts: HttpFront[] = [];
  const sessions: HttpSession[] = [];
  const raws: RawClient[] = [];
  const releaseFiles: string[] = [];
  afterEach(async () => {
    for (const f of releaseFiles.splice(0)) writeFileSync(f, '');
    for (const r of raws.splice(0)) r.close();
    await Promise.all(sessions.splice(0).map((s) => s.close().catch(() => undefined)));
    for (const f of fronts.splice(0)) await f.stop();
    await scope.cleanup();
  });

  it('gives each session its own roots and simulation sessions on one shared broker; DELETE releases a held lease', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const other = scope.root('python-basic');
    const release = join(home, 'release-the-section');
    const marker = join(home, 'a-holds-its-section');
    releaseFiles.push(release);
    const front = await startHttpFront(home, { hooks: { holdSectionUntil: release, sectionMarker: marker } });
    fronts.push(front);

    const a = await front.session();
    sessions.push(a);
    ok(await a.call('start_lsp', { root_dir: root, language_id: 'python' }));
    const refs = ok(await a.call('find_references', PYTHON_DISTANCE));
    expect(refs['complete']).toBe(true);
    expect(refs['total']).toBe(EXPECTED_REFERENCES);
    ok(await a.call('get_diagnostics', { file_path: FILE }));

    const b = await front.session();
    sessions.push(b);
    expect(b.transport.sessionId).not.toBe(a.transport.sessionId);
    ok(await b.call('start_lsp', { root_dir: root, language_id: 'python' }));
    expect(ok(await b.call('find_references', PYTHON_DISTANCE))['total']).toBe(EXPECTED_REFERENCES);

    // Roots: a folder A adds is A's alone.
    ok(await a.call('add_workspace_folder', { path: other }));
    expect(JSON.stringify(ok(await a.call('list_workspace_folders', {})))).toContain(other);
    expect(JSON.stringify(ok(await b.call('list_workspace_folders', {})))).not.toContain(other);

    // Simulation sessions: A's id means nothing to B, and B cannot end it.
    const simA = ok(await a.call('create_simulation_session', { language: 'python' }))['session_id'] as string;
    ok(await a.call('simulate_edit', { session_id: simA, ...EDIT }));
    const foreign = await b.call('simulate_edit', { session_id: simA, ...EDIT });
    expect(foreign.isError).toBe(true);
    expect(foreign.text).toMatch(/There is no simulation session/);
    expect((await b.call('discard_session', { session_id: simA })).isError).toBe(true);

    // The audit log says which session made each call.
    const audit = readFileSync(join(home, 'state', 'audit.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { agent?: string; tool: string });
    const agentOf = (s: HttpSession) => `http:${(s.transport.sessionId as string).slice(0, 8)}`;
    expect(audit.filter((e) => e.tool === 'create_simulation_session').map((e) => e.agent)).toEqual([agentOf(a)]);
    expect(audit.filter((e) => e.tool === 'discard_session').map((e) => e.agent)).toEqual([agentOf(b)]);
    expect(new Set(audit.map((e) => e.agent))).toEqual(new Set([agentOf(a), agentOf(b)]));

    // One broker, one pyright, both sessions its clients (as http).
    const daemons = daemonsByLanguage(home);
    expect([...daemons.keys()]).toEqual(['python']);
    const info = await readyDaemon(home, 'python');
    expect(serverPids(home, PYRIGHT)).toEqual([info.server.pid]);
    const status = ok(await b.call('get_daemon_status', {}));
    const daemon = (status['daemons'] as { root: string; client_list: { kind: string; pid?: number }[] }[]).find((d) => d.root === root);
    expect(daemon?.client_list.filter((c) => c.kind === 'http')).toHaveLength(2);
    expect(daemon?.client_list.every((c) => c.pid === front.pid)).toBe(true);

    // A holds an exclusive section (its evaluation waits in a test hook); the broker shows the lease.
    const observer = await rawClient(info.socket, { canPull: false });
    raws.push(observer);
    const stats = () => observer.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null);
    const evaluation = a.call('evaluate_session', { session_id: simA, timeout_ms: 60_000 }).catch((err: unknown) => err);
    await waitUntil(() => existsSync(marker), 60_000, 'A to hold its section');
    expect((await stats()).lease).not.toBeNull();
    const clientsBefore = (await stats()).clients;

    // DELETE of A's session: its connection goes, and the lease with it.
    await a.terminate();
    await eventually(async () => (await stats()).lease === null, 'the lease to be released');
    expect((await stats()).clients).toBe(clientsBefore - 1);
    await evaluation;
    // B is not held up by anything A left behind.
    expect(ok(await b.call('find_references', PYTHON_DISTANCE))['total']).toBe(EXPECTED_REFERENCES);
    const health = (await (await fetch(new URL('/health', front.url))).json()) as { sessions: number; servers: { ready: number } };
    expect(health.sessions).toBe(1);
    expect(health.servers.ready).toBe(1);

    // SIGTERM: the HTTP server exits; its brokers live on (they are the user's shared servers).
    const brokers = brokerTree(home);
    const children = descendants(front.pid).filter((p) => !brokers.includes(p));
    expect(await front.stop()).toBe(0);
    fronts.splice(0);
    for (const p of children) expect(isAlive(p)).toBe(false);
    expect(isAlive(info.broker.pid)).toBe(true);
    expect(isAlive(info.server.pid as number)).toBe(true);
  });

  it('on SIGTERM ends the servers it started itself (--daemon never) and leaves no child process', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    const front = await startHttpFront(home, { args: ['--daemon', 'never'] });
    fronts.push(front);
    const s = await front.session();
    sessions.push(s);
    ok(await s.call('start_lsp', { root_dir: root, language_id: 'python' }));
    expect(ok(await s.call('find_references', PYTHON_DISTANCE))['total']).toBe(EXPECTED_REFERENCES);
    const children = descendants(front.pid);
    expect(children.some((p) => serverPids(home, PYRIGHT).includes(p))).toBe(true);
    expect(await front.stop()).toBe(0);
    fronts.splice(0);
    await waitUntil(() => children.every((p) => !isAlive(p)), 15_000, 'the HTTP server\'s children to exit');
    expect(daemonsByLanguage(home).size).toBe(0);
  });
});
