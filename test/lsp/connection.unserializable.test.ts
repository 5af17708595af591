import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { createLogger, ServerCrashedError, startDirectConnection, type LspConnection } from '@agent-lsp/lsp';
import { faultServerDefinition } from '../helpers/faultServer.js';

/** Arrays nested `depth` levels: JSON.stringify recurses once per level and overflows the stack. */
function deeplyNested(depth: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/**
 * A message that cannot be serialized is its sender's error: the one request fails, the server
 * and the connection live on. Before, the failed write was taken for a lost connection and the
 * healthy server was killed.
 */
describe('LspConnection given a message it cannot serialize', () => {
  let root: string;
  let conn: LspConnection;
  let uri: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-unserializable-'));
    conn = await startDirectConnection({ server: faultServerDefinition(), rootDir: root, workspaceFolders: [root], logger: createLogger({ level: 'error' }) });
    const file = join(root, 'a.fault');
    writeFileSync(file, 'calm');
    uri = pathToUri(file);
    conn.documents.sync(uri, 'fault', 'calm');
  });
  afterAll(async () => {
    await conn.shutdown();
    rmSync(root, { recursive: true, force: true });
  });

  const hover = () => conn.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 0 } });

  it('rejects that request only, and keeps the server', async () => {
    const pid = conn.pid;
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    for (const params of [{ deep: deeplyNested(100_000) }, circular, { big: 10n }]) {
      const failed = conn.request('workspace/executeCommand', params);
      await expect(failed).rejects.toThrow(/could not be serialized/);
      await expect(failed).rejects.not.toBeInstanceOf(ServerCrashedError);
    }
    conn.notify('workspace/didChangeConfiguration', { settings: deeplyNested(100_000) });
    expect((await hover()).contents.value).toBe('fault-server hover');
    expect(conn.state).toBe('running');
    expect(conn.pid).toBe(pid);
  });
});
