// openReadyDocument when the document leaves the server's buffers between the readiness wait and
// the query: a server that went away is reported as such (never as a removed file), a document
// closed meanwhile is opened again from the disk, and only a file gone from disk is "not found".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, ServerCrashedError, ServerRegistry } from '@agent-lsp/lsp';
import { Workspace } from '@agent-lsp/workspace';
import type { ToolContext } from '../../packages/tools/src/catalog/toolDefinition.js';
import { openReadyDocument } from '../../packages/tools/src/project/documentQuery.js';
import { faultServerDefinition } from '../helpers/faultServer.js';
import { waitUntil } from '../helpers/processes.js';

const logger = createLogger({ level: 'error', sink: () => undefined });

describe('openReadyDocument when the document is gone from the server after the readiness wait', () => {
  let root: string;
  let file: string;
  let workspace: Workspace;

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-ready-gone-'));
    file = join(root, 'a.fault');
    writeFileSync(file, 'first line\n');
    workspace = new Workspace({ registry: new ServerRegistry([faultServerDefinition()]), logger, prefetch: false });
    await workspace.setRoot(root);
  });
  afterEach(async () => {
    await workspace.stopAll();
    rmSync(root, { recursive: true, force: true });
  });

  /** A tool context whose post-wait disk resync first runs `meanwhile` (what happens while the call waits). */
  function contextWith(meanwhile: () => Promise<void>): ToolContext {
    let armed = true;
    const ws = new Proxy(workspace, {
      get(target, prop, receiver) {
        if (prop === 'syncFromDisk') {
          return async (paths?: readonly string[]) => {
            if (armed && paths) {
              armed = false;
              await meanwhile();
            }
            return target.syncFromDisk(paths);
          };
        }
        const value: unknown = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { workspace: ws, signal: new AbortController().signal, logger, reportProgress: () => undefined } as unknown as ToolContext;
  }

  it('reports the server that went away, not a removed file, though the file is on disk', async () => {
    const first = await openReadyDocument(contextWith(() => Promise.resolve()), { file_path: file });
    if (!('handle' in first)) throw new Error('not ready');
    const conn = first.handle.conn;
    const pid = conn.pid;
    if (pid === undefined) throw new Error('no server pid');
    const ctx = contextWith(async () => {
      process.kill(pid, 'SIGKILL');
      await waitUntil(() => conn.failure !== undefined, 10_000, 'the connection to see its server die');
    });
    const attempt = openReadyDocument(ctx, { file_path: file });
    await expect(attempt).rejects.toBeInstanceOf(ServerCrashedError);
    await expect(attempt).rejects.not.toThrow(/removed|does not exist/);
  });

  it('opens again from the disk a document another call closed meanwhile', async () => {
    const ctx = contextWith(async () => {
      await workspace.closeDocument(file);
      writeFileSync(file, 'changed on disk\n');
    });
    const ready = await openReadyDocument(ctx, { file_path: file });
    if (!('handle' in ready)) throw new Error('not ready');
    expect(ready.handle.doc.text).toBe('changed on disk\n');
    expect(ready.handle.conn.documents.get(ready.handle.uri)?.text).toBe('changed on disk\n');
  });

  it('says the file does not exist when it was removed from disk meanwhile', async () => {
    const ctx = contextWith(async () => {
      rmSync(file);
      await workspace.closeDocument(file);
    });
    await expect(openReadyDocument(ctx, { file_path: file })).rejects.toThrow(/does not exist/);
  });
});
