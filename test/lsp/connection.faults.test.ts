import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import {
  createLogger,
  RequestCancelledError,
  RequestTimeoutError,
  ServerCrashedError,
  startDirectConnection,
  type LspConnection,
} from '@agent-lsp/lsp';
import { faultServerDefinition } from '../helpers/faultServer.js';
import { isAlive, waitUntil } from '../helpers/processes.js';

const logger = createLogger({ level: 'error' });

describe('LspConnection when the server misbehaves', () => {
  let root: string;
  let conn: LspConnection | undefined;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-fault-'));
  });
  afterEach(async () => {
    await conn?.shutdown();
    conn = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  async function start(env: Record<string, string> = {}): Promise<LspConnection> {
    conn = await startDirectConnection({ server: faultServerDefinition(env), rootDir: root, workspaceFolders: [root], logger });
    return conn;
  }

  function open(c: LspConnection, name: string, text: string): string {
    const file = join(root, name);
    writeFileSync(file, text);
    const uri = pathToUri(file);
    c.documents.sync(uri, 'fault', text);
    return uri;
  }

  it('fails every pending request at once with an error naming the crash', async () => {
    const c = await start();
    const uri = open(c, 'a.fault', 'CRASH here');
    const position = { line: 0, character: 0 };
    // Long timeouts: only the crash can end these requests.
    const hanging = c.request('textDocument/definition', { textDocument: { uri }, position }, { timeoutMs: 600_000 });
    const crashing = c.request('textDocument/hover', { textDocument: { uri }, position }, { timeoutMs: 600_000 });
    await expect(hanging).rejects.toBeInstanceOf(ServerCrashedError);
    await expect(crashing).rejects.toThrow(/fault-server language server stopped unexpectedly \(exit code 3/);
    expect(c.state).toBe('crashed');
    // Later requests fail the same way instead of hanging.
    await expect(c.request('textDocument/references', {}, { timeoutMs: 600_000 })).rejects.toBeInstanceOf(ServerCrashedError);
  });

  it('times out a request that is never answered and cancels it at the server', async () => {
    const c = await start();
    const uri = open(c, 'b.fault', 'fine');
    await expect(
      c.request('textDocument/definition', { textDocument: { uri }, position: { line: 0, character: 0 } }, { timeoutMs: 300 }),
    ).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(await c.request<string[]>('fault/cancelled', null)).toEqual(['textDocument/definition']);
    // The connection is still usable after a timeout.
    expect(await c.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } })).toMatchObject({
      contents: { value: 'fault-server hover' },
    });
  });

  it('cancels a request when the caller aborts', async () => {
    const c = await start();
    const uri = open(c, 'c.fault', 'fine');
    const abort = new AbortController();
    const pending = c.request('textDocument/definition', { textDocument: { uri }, position: { line: 0, character: 0 } }, { signal: abort.signal, timeoutMs: 600_000 });
    // The server handles messages in order: once this answers, the definition request is in its handler.
    await c.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });
    abort.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    expect(await c.request<string[]>('fault/cancelled', null)).toEqual(['textDocument/definition']);
  });

  it('ends a server that never answers shutdown', async () => {
    const c = await start({ FAULT_IGNORE_SHUTDOWN: '1' });
    const pid = c.pid as number;
    expect(isAlive(pid)).toBe(true);
    await c.shutdown();
    await waitUntil(() => !isAlive(pid), 10_000, `server ${pid} to exit`);
    expect(c.state).toBe('stopped');
  });
});
