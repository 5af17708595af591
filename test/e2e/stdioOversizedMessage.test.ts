import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_STDIO_MESSAGE_BYTES } from '@agent-lsp/server';
import { BIN } from '../helpers/paths.js';
import { isAlive, waitUntil } from '../helpers/processes.js';
import { temporaryHome } from '../helpers/testHome.js';

/** A message over the stdio limit is the client's error: answered as such, and the front serves on (it used to exit 0 without a word). */
describe('stdio: a message over the size limit', () => {
  const home = temporaryHome();
  let front: ChildProcessWithoutNullStreams | undefined;
  afterAll(async () => {
    if (front?.pid !== undefined && isAlive(front.pid)) {
      front.kill('SIGKILL');
      await waitUntil(() => !isAlive(front!.pid!), 10_000, 'the front to exit');
    }
    home.remove();
  });

  it('is refused with a JSON-RPC error and the next request is answered', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--daemon', 'never'], { env: { ...process.env, AGENT_LSP_HOME: home.home } });
    front = child;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    let exited = false;
    child.once('exit', () => (exited = true));
    const lines = () => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: unknown; result?: unknown; error?: { message: string } });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);

    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    await waitUntil(() => lines().some((m) => m.id === 1), 30_000, 'the initialize answer');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });

    const padding = 'x'.repeat(MAX_STDIO_MESSAGE_BYTES + 1024);
    child.stdin.write(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ping","arguments":{"p":"${padding}"}}}\n`);
    send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    await waitUntil(() => exited || lines().some((m) => m.id === 3), 60_000, 'the tools/list answer');

    expect(exited, stderr.slice(-2000)).toBe(false);
    const refused = lines().find((m) => m.id === null);
    expect(refused?.error?.message).toMatch(/Request too large: a message over \d+ bytes was dropped/);
    expect(lines().find((m) => m.id === 3)?.result).toMatchObject({ tools: expect.any(Array) });
    expect(stderr).toMatch(/Request too large/);
  }, 120_000);
});
