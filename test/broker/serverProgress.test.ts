// Issue 32 item 4: progress reaching editors is well-formed. A client never receives `$/progress`
// for a token it was not told to create (`window/workDoneProgress/create`), and a client that does
// not support server-created progress gets none (Neovim 0.7.2's handler failed on another token).
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { waitUntil } from '../helpers/processes.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

interface Progress {
  token: string | number;
  value: { kind: string };
}

const progressOf = (c: RawClient) => c.notifications.filter((n) => n.method === '$/progress').map((n) => n.params as Progress);

describe('server-created progress on a typescript-language-server broker', () => {
  let dir: string;
  let broker: TestBroker;
  const clients: RawClient[] = [];

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-progress-')));
    const project = (sub: string, file: string, text: string) => {
      mkdirSync(join(dir, sub, 'src'), { recursive: true });
      writeFileSync(join(dir, sub, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext' }, include: ['src'] }));
      writeFileSync(join(dir, sub, 'src', file), text);
    };
    project('.', 'main.ts', 'export const main = 1;\n');
    project('other', 'other.ts', 'export function other(): number {\n  return 2;\n}\n');
    broker = await startTestBroker(dir, 'typescript');
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reaches only clients told to create its token, create first, and never a client that cannot take it', async () => {
    const capable = await rawClient(broker.info.socket, { canPull: false });
    const incapable = await rawClient(broker.info.socket, { canPull: false, workDoneProgress: false });
    clients.push(capable, incapable);
    // Opening a file of a project the server has not loaded makes it report "Initializing JS/TS
    // language features" under a token it creates.
    const file = join(dir, 'other', 'src', 'other.ts');
    await capable.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: pathToUri(file), languageId: 'typescript', version: 1, text: 'export function other(): number {\n  return 2;\n}\n' } });
    await waitUntil(() => progressOf(capable).some((p) => p.value.kind === 'end'), 60_000, 'the project-loading progress to end');

    const created = new Set<unknown>();
    for (const n of capable.notifications) {
      if (n.method === 'window/workDoneProgress/create') created.add((n.params as { token: unknown }).token);
      if (n.method === '$/progress') expect(created.has((n.params as Progress).token)).toBe(true);
    }
    expect(progressOf(capable).map((p) => p.value.kind)).toEqual(expect.arrayContaining(['begin', 'end']));
    // The incapable client is asked nothing and told nothing, though it is connected all along.
    await capable.rpc.sendRequest('$/agentLsp/stats', null);
    await incapable.rpc.sendRequest('$/agentLsp/stats', null);
    expect(incapable.notifications.filter((n) => n.method === '$/progress' || n.method === 'window/workDoneProgress/create')).toEqual([]);
  });
});
