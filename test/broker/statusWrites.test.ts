// daemon.json is written best effort and off the accept path: a broker that cannot write it keeps
// serving, and a burst of connections is accepted whole.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { daemonDir as daemonDirOf, readDaemonFile } from '@agent-lsp/broker';
import { FAULT_SERVER } from '../helpers/faultServer.js';
import { isAlive, waitUntil } from '../helpers/processes.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

/** Connects and disconnects at once; resolves whether the broker accepted the connection. */
function connectOnce(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

describe('daemon.json status writes', () => {
  let dir: string;
  let broker: TestBroker;
  const clients: RawClient[] = [];

  beforeEach(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-status-writes-')));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'fault', extensions: ['.fault'], command: [process.execPath, FAULT_SERVER] }] }));
    broker = await startTestBroker(dir, 'fault', { config });
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps serving while daemon.json cannot be written, and writes it again once it can', async () => {
    const daemonDir = daemonDirOf(broker.info.key, { AGENT_LSP_HOME: broker.home });
    const statusFile = join(daemonDir, 'daemon.json');
    // A directory where daemon.json should be: every write (temp file + rename) fails.
    rmSync(statusFile, { force: true });
    mkdirSync(statusFile);
    for (let i = 0; i < 3; i++) clients.push(await rawClient(broker.info.socket, { canPull: false }));
    expect(clients.every((c) => c.init.capabilities.hoverProvider !== undefined)).toBe(true);
    await waitUntil(() => /could not write daemon\.json/.test(broker.log()), 30_000, 'the broker to log the failed write');
    expect(isAlive(broker.process.pid as number)).toBe(true);
    expect(broker.process.exitCode).toBeNull();

    rmSync(statusFile, { recursive: true });
    await waitUntil(() => readDaemonFile(daemonDir)?.clients === 3, 30_000, 'daemon.json to be rewritten with 3 clients');
    expect(statSync(statusFile).isFile()).toBe(true);
  });

  it('accepts a burst of 2,000 connections at once and stays up', async () => {
    const results = await Promise.all(Array.from({ length: 2000 }, () => connectOnce(broker.info.socket)));
    expect(results.filter((ok) => ok).length).toBe(2000);
    expect(isAlive(broker.process.pid as number)).toBe(true);
    const after = await rawClient(broker.info.socket, { canPull: false });
    clients.push(after);
    expect(after.init.serverInfo?.name).toBe('fault-server');
    await waitUntil(() => readDaemonFile(daemonDirOf(broker.info.key, { AGENT_LSP_HOME: broker.home }))?.clients === 1, 30_000, 'daemon.json to count the one client left');
  });
});
