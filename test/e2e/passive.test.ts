// Passive mode: start_lsp with `connect` dials a server someone else started, and never ends it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExecutable } from '@agent-lsp/lsp';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';
import { isAlive } from '../helpers/processes.js';
import { positionOf } from '../helpers/text.js';

const GOPLS = findExecutable('gopls');
const GO = join(FIXTURES, 'go-basic');
if (!GOPLS) console.warn('gopls is not installed: the passive-mode test did not run (apt-get install gopls)');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function listening(port: number): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + 30_000;
  for (;;) {
    const okNow = await new Promise<boolean>((r) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        r(true);
      });
      s.once('error', () => r(false));
    });
    if (okNow) return;
    if (Date.now() > deadline) throw new Error(`gopls did not listen on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!GOPLS)(`passive mode over TCP${GOPLS ? '' : ' (gopls NOT INSTALLED — did not run)'}`, () => {
  let gopls: ChildProcess;
  let port: number;
  let agent: AgentLspClient;

  beforeAll(async () => {
    port = await freePort();
    gopls = spawn(GOPLS as string, ['serve', `-listen=127.0.0.1:${port}`], { cwd: GO, stdio: 'ignore' });
    await listening(port);
    agent = await startAgentLsp();
  });
  afterAll(async () => {
    await agent.close();
    if (gopls.pid !== undefined && isAlive(gopls.pid)) gopls.kill('SIGKILL');
  });

  it('answers through the external server and leaves it running when the front exits', async () => {
    ok(await agent.call('start_lsp', { root_dir: GO, language_id: 'go', connect: `127.0.0.1:${port}` }));
    const data = ok(await agent.call('go_to_definition', { file_path: 'main.go', position_pattern: 'geometry.@@Distance(origin, p)' }));
    expect(data['locations']).toEqual([expect.objectContaining({ file: 'geometry/geometry.go', ...positionOf(join(GO, 'geometry', 'geometry.go'), 'Distance(a, b Point)') })]);
    await agent.close();
    expect(isAlive(gopls.pid as number)).toBe(true);
  });

  it('says clearly when nothing listens at the address', async () => {
    const other = await startAgentLsp();
    try {
      const answer = await other.call('start_lsp', { root_dir: GO, language_id: 'go', connect: `127.0.0.1:${await freePort()}` });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/Could not connect to a language server at 127\.0\.0\.1:\d+.*Is it running/);
    } finally {
      await other.close();
    }
  });
});
