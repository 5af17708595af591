import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NotificationType } from 'vscode-jsonrpc/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Location, LocationLink } from 'vscode-languageserver-protocol';
import { pathToUri } from '@agent-lsp/protocol';
import { createLogger, ServerRegistry, startDirectConnection, type LspConnection } from '@agent-lsp/lsp';
import { onPath } from '../helpers/onPath.js';
import { FIXTURES } from '../helpers/paths.js';

const StatusNotification = new NotificationType<{ quiescent: boolean }>('experimental/serverStatus');
const notRun = onPath('rust-analyzer') ? undefined : 'rust-analyzer is not on PATH (agent-lsp servers install rust)';

/**
 * rust-analyzer's progress ends between its loading phases; taken as ready then, a query was
 * answered "content modified" (the language matrix in CI). Ready means rust-analyzer said it is
 * quiescent, and a query asked at that moment is answered.
 */
describe.skipIf(notRun !== undefined)(notRun ? `rust-analyzer readiness: not run (${notRun})` : 'rust-analyzer readiness', () => {
  let root: string;
  let conn: LspConnection;
  const statuses: boolean[] = [];
  let statusWhenReady: boolean | undefined | 'none';

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-rust-ready-')));
    cpSync(join(FIXTURES, 'languages', 'rust'), root, { recursive: true });
    conn = await startDirectConnection({ server: new ServerRegistry().forLanguage('rust'), rootDir: root, workspaceFolders: [root], logger: createLogger({ level: 'error' }) });
    conn.onNotification(StatusNotification, (s) => statuses.push(s.quiescent));
    conn.readiness.onChange((snap) => {
      // After every listener of the notification that made it ready (ours included) has run.
      if (snap.ready && statusWhenReady === undefined) queueMicrotask(() => (statusWhenReady = statuses.at(-1) ?? 'none'));
    });
    await conn.readiness.waitReady({ timeoutMs: 120_000 });
  }, 150_000);
  afterAll(async () => {
    await conn?.shutdown();
    rmSync(root, { recursive: true, force: true });
  });

  it('is ready only once rust-analyzer says it is quiescent', () => {
    expect(statuses.length).toBeGreaterThan(0);
    expect(statusWhenReady).toBe(true);
  });

  it('answers a cross-file definition asked the moment it is ready', async () => {
    const file = join(root, 'src', 'main.rs');
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('shapes::area(3, 4)'));
    conn.documents.sync(pathToUri(file), 'rust', text);
    const character = (lines[line] as string).indexOf('area(3, 4)');
    const found = await conn.request<Location[] | LocationLink[] | null>('textDocument/definition', { textDocument: { uri: pathToUri(file) }, position: { line, character } });
    const targets = (found ?? []).map((l) => ('targetUri' in l ? l.targetUri : l.uri));
    expect(targets).toEqual([pathToUri(join(root, 'src', 'shapes.rs'))]);
  });
});
