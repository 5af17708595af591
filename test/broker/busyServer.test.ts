// The broker's health probe tells a server that computes without answering (pyright indexing or
// answering a long request on its one thread) from one that hangs: the first is waited for,
// however long it works, the second is found unresponsive within the probe's timeout.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hover } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerStatusNotification, ErrorCodes, pathToUri, type BrokerStatusParams } from '@agent-lsp/protocol';
import { FAULT_SERVER } from '../helpers/faultServer.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

/** Probes every 200 ms (answer within 400 ms); a working server may stay silent 600 ms. */
const PROBE = { AGENT_LSP_HEALTH_PROBE_MS: '200', AGENT_LSP_HEALTH_BUSY_GRACE_MS: '600' };
/** Five times the grace. */
const WORK_MS = 3_000;

describe('a broker whose server works a long time without answering, or hangs', () => {
  let dir: string;
  let broker: TestBroker;
  let client: RawClient;
  const hover = async (name: string, text: string) => {
    const uri = pathToUri(join(dir, name));
    writeFileSync(join(dir, name), text);
    await client.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'fault', version: 1, text } });
    return client.rpc.sendRequest<Hover>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
  };

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-busy-broker-')));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'fault', extensions: ['.fault'], command: [process.execPath, FAULT_SERVER] }] }));
    broker = await startTestBroker(dir, 'fault', { config, env: PROBE });
    client = await rawClient(broker.info.socket, { canPull: false });
  });
  afterAll(async () => {
    client.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('waits for a server that computes (uses CPU) far past the busy grace and answers; it never counts as unresponsive', async () => {
    const seen = client.notifications.length;
    const answer = await hover('busy.fault', `BUSY ${WORK_MS}`);
    expect(answer.contents).toEqual({ kind: 'markdown', value: 'fault-server hover' });
    // The broker tells its clients every change of state: none said unresponsive.
    const states = client.notifications.slice(seen).filter((n) => n.method === BrokerStatusNotification.method).map((n) => (n.params as BrokerStatusParams).state);
    expect(states).not.toContain('unresponsive');
    expect(broker.log()).toMatch(/answered no health probe for [\d.]+ s but keeps working/);
  });

  it('still finds a server that blocks without using CPU (deadlocked) unresponsive, failing the request waiting on it', async () => {
    const error = await hover('deadlock.fault', `DEADLOCK ${WORK_MS}`).then(
      () => undefined,
      (e: { code?: number; message?: string }) => e,
    );
    expect(error?.code).toBe(ErrorCodes.ServerUnresponsive);
    expect(error?.message).toContain('unresponsive');
  });
});
