import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hover } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { readDaemonFile } from '@agent-lsp/broker';
import { fixtureRoot } from '../helpers/brokers.js';
import { FAULT_SERVER } from '../helpers/faultServer.js';
import { isAlive, waitUntil } from '../helpers/processes.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';
import { deepRequest, frame, frameSocket } from '../helpers/rawFrames.js';

function hoverText(h: Hover | null): string {
  const c = h?.contents;
  return typeof c === 'object' && c !== null && 'value' in c ? c.value : JSON.stringify(c);
}

/** One client's malformed messages are that client's problem: the shared broker and server live on. */
describe('a pyright broker with a hostile client', () => {
  let root: string;
  let broker: TestBroker;
  let good: RawClient;
  let serverPid: number | undefined;
  let geometry: string;

  const goodHover = async () => hoverText(await good.rpc.sendRequest<Hover>('textDocument/hover', { textDocument: { uri: geometry }, position: { line: 11, character: 5 } }));
  const brokerDaemon = () => readDaemonFile(join(broker.home, 'daemons', broker.info.key));

  beforeAll(async () => {
    root = fixtureRoot('python-basic');
    broker = await startTestBroker(root, 'python');
    serverPid = broker.info.server.pid;
    good = await rawClient(broker.info.socket, { canPull: true });
    const file = join(root, 'python-basic', 'app', 'geometry.py');
    geometry = pathToUri(file);
    await good.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: geometry, languageId: 'python', version: 1, text: readFileSync(file, 'utf8') } });
    expect(await goodHover()).toContain('def distance');
  });
  afterAll(async () => {
    good.close();
    await broker.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('closes a client whose request nests thousands deep, and keeps the server for the others', async () => {
    for (let i = 0; i < 7; i++) {
      const hostile = await frameSocket(broker.info.socket);
      const body = deepRequest(1, 'workspace/executeCommand', 6000);
      expect(body.length).toBeGreaterThan(12_000);
      hostile.send(frame(body));
      await hostile.closed;
      expect(hostile.received).toEqual([]);
    }
    expect(isAlive(broker.process.pid as number)).toBe(true);
    expect(brokerDaemon()?.server.pid).toBe(serverPid);
    expect(brokerDaemon()?.restarts).toBe(0);
    expect(await goodHover()).toContain('def distance');
    expect(broker.log()).toMatch(/sent a bad frame \(message nests deeper than 256 levels\)/);
  });

  it('answers requests whose params do not fit with InvalidParams', async () => {
    const c = await frameSocket(broker.info.socket);
    c.sendMessage({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { capabilities: 'all of them' } });
    c.sendMessage({ jsonrpc: '2.0', id: 2, method: '$/agentLsp/acquire', params: { leaseMs: 'forever' } });
    c.sendMessage({ jsonrpc: '2.0', id: 3, method: '$/agentLsp/release', params: { leaseId: 7 } });
    c.sendMessage({ jsonrpc: '2.0', id: 4, method: '$/agentLsp/renew', params: null });
    for (const id of [1, 2, 3, 4]) expect((await c.response(id))?.error?.code).toBe(-32602);
    expect((await c.response(1))?.error?.message).toMatch(/initialize: capabilities must be an object/);
    c.close();
    expect(await goodHover()).toContain('def distance');
  });

  it('closes a client whose document notifications do not fit the protocol; the others are unaffected', async () => {
    const file = join(root, 'python-basic', 'app', 'routes.py');
    const uri = pathToUri(file);
    const garbage = [
      { method: 'textDocument/didChange', params: { textDocument: { uri: geometry, version: 2 }, contentChanges: 'all of it' } },
      { method: 'textDocument/didChange', params: { textDocument: { uri: geometry, version: 2 }, contentChanges: [{ range: { start: 3 }, text: 'x' }] } },
      { method: 'textDocument/didChange', params: { textDocument: { uri: geometry, version: 2 }, contentChanges: [{ text: 42 }] } },
      { method: 'textDocument/didOpen', params: { textDocument: { uri: 42, languageId: 'python', version: 1, text: '' } } },
      { method: 'textDocument/didClose', params: { textDocument: {} } },
      { method: 'workspace/didChangeWatchedFiles', params: { changes: [{ uri, type: 'changed' }] } },
      { method: '$/cancelRequest', params: null },
    ];
    for (const message of garbage) {
      const c = await frameSocket(broker.info.socket);
      c.sendMessage({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: geometry, languageId: 'python', version: 1, text: 'x = 1\n' } } });
      c.sendMessage({ jsonrpc: '2.0', ...message });
      await c.closed;
    }
    expect(brokerDaemon()?.server.pid).toBe(serverPid);
    // The good client's text is what the server holds again: the hostile clients' documents were released.
    expect(await goodHover()).toContain('def distance');
    expect(broker.log()).toMatch(/textDocument\/didChange: contentChanges must be an array/);
  });

  it('binds its socket for its owner only (0600)', () => {
    expect(statSync(broker.info.socket).mode & 0o777).toBe(0o600);
  });
});

describe('a broker whose only client sent a didOpen with a number for a uri', () => {
  let dir: string;
  let broker: TestBroker;

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-hostile-idle-')));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'fault', extensions: ['.fault'], command: [process.execPath, FAULT_SERVER] }] }));
    broker = await startTestBroker(dir, 'fault', { config, idleTimeoutMs: 10_000 });
  });
  afterAll(async () => {
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('still stops once idle after that client leaves', async () => {
    const c = await frameSocket(broker.info.socket);
    c.sendMessage({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: 42, languageId: 'fault', version: 1, text: 'calm' } } });
    c.sendMessage({ jsonrpc: '2.0', id: 1, method: '$/agentLsp/stats', params: null });
    await c.response(1, 10_000);
    c.close();
    await c.closed;
    const pid = broker.process.pid as number;
    await waitUntil(() => !isAlive(pid), 60_000, 'the broker to stop after its idle timeout');
    expect(broker.log()).toMatch(/stopping: idle timeout/);
  });
});
