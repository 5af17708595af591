import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import type { LspConnection, ServerRegistry } from '@agent-lsp/lsp';
import { openChangedFiles } from './freshAnswer.js';

const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-changed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('openChangedFiles', () => {
  it('opens, with its disk text, exactly the files of an answer written since the connection began', async () => {
    const startedAt = Date.now();
    const file = (name: string, text: string, mtimeMs: number) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);
      return pathToUri(path);
    };
    const old = file('old.py', 'a = 1\n', startedAt - 60_000);
    const changed = file('changed.py', 'b = 2\n', startedAt + 1_000);
    const gone = pathToUri(join(dir, 'gone.py'));
    const synced = new Map<string, string>();
    const conn = {
      server: { id: 'pyright' },
      startedAt,
      documents: { get: (uri: string) => (synced.has(uri) ? { text: synced.get(uri) } : undefined), sync: (uri: string, _lang: string, text: string) => synced.set(uri, text) },
    } as unknown as LspConnection;
    const registry = { forFile: () => ({ server: { id: 'pyright' }, languageId: 'python' }) } as unknown as ServerRegistry;

    expect(await openChangedFiles(conn, registry, [old, changed, gone])).toBe(1);
    expect([...synced]).toEqual([[changed, 'b = 2\n']]);
    // Open now: an answer naming it again opens nothing more.
    expect(await openChangedFiles(conn, registry, [old, changed])).toBe(0);
  });
});
