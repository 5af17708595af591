import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Location } from 'vscode-languageserver-protocol';
import { pathToUri } from '@agent-lsp/protocol';
import { createLogger, RequestCancelledError, ServerRegistry, startDirectConnection, type LspConnection } from '@agent-lsp/lsp';
import { FIXTURES } from '../helpers/paths.js';

/**
 * pyright (1.1.414) breaks its find-all-references for good when it reads a references request
 * and its `$/cancelRequest` together: every later references request fails with "this._token
 * .cancel is not a function" until it restarts. A connection to pyright therefore never sends that
 * cancel (ServerDefinition.uncancellable); the caller's cancel still ends its request at once. A
 * broker's relayed requests take the same path: one client's cancel would break every client.
 */
/** A module pyright takes a while to parse and bind. */
function bigModule(seed: number): string {
  const lines: string[] = [];
  for (let i = 0; i < 6000; i++) lines.push(`def f_${seed}_${i}(x: int, y: str = "a") -> dict[str, list[int]]:\n    return {y: [x, ${i}, len(y)]} if x > ${i} else {str(x): [${i}]}\n`);
  return lines.join('');
}

describe('cancelled references requests to pyright', () => {
  let root: string;
  let conn: LspConnection;
  let uri: string;
  const params = () => ({ textDocument: { uri }, position: { line: 11, character: 5 }, context: { includeDeclaration: true } });

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-pyright-cancel-')));
    cpSync(join(FIXTURES, 'python-basic'), root, { recursive: true });
    const file = join(root, 'app', 'geometry.py');
    uri = pathToUri(file);
    conn = await startDirectConnection({ server: new ServerRegistry().forLanguage('python'), rootDir: root, workspaceFolders: [root], logger: createLogger({ level: 'error' }) });
    conn.documents.sync(uri, 'python', readFileSync(file, 'utf8'));
    await conn.readiness.waitReady({ timeoutMs: 120_000 });
  }, 120_000);
  afterAll(async () => {
    await conn?.shutdown();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers references in full after requests cancelled while pyright was busy, asked directly or relayed', async () => {
    const before = await conn.request<Location[]>('textDocument/references', params());
    expect(before.length).toBeGreaterThan(1);
    // As a front asks (request) and as a broker passes a client's request on (relayRequest).
    const ask = (i: number, signal: AbortSignal) => (i % 2 ? conn.relayRequest('textDocument/references', params(), { signal }) : conn.request('textDocument/references', params(), { signal }));
    for (let i = 0; i < 4; i++) {
      // pyright busy with a big module's symbols (its event loop held for a while), so that the
      // request and its cancel wait in its input together.
      const big = join(root, `big_${i}.py`);
      conn.documents.sync(pathToUri(big), 'python', bigModule(i));
      const busy = conn.request('textDocument/documentSymbol', { textDocument: { uri: pathToUri(big) } });
      const abort = new AbortController();
      const cancelled = ask(i, abort.signal);
      await new Promise((r) => setTimeout(r, 5));
      abort.abort();
      await expect(cancelled).rejects.toBeInstanceOf(RequestCancelledError);
      await busy;
    }
    const after = await conn.request<Location[]>('textDocument/references', params());
    expect(after).toEqual(before);
  }, 60_000);
});
