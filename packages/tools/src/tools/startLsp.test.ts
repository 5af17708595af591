import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerDefinition } from '@agent-lsp/lsp';
import type { ToolContext } from '../catalog/toolDefinition.js';
import { startLsp } from './lifecycle.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-start-resolve-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * start_lsp's own steps around a workspace whose connection is given: a server that counts how
 * often it is resolved (finding its binary, its interpreter: file system work on a fresh agent's path).
 */
function run(args: Record<string, unknown>) {
  let resolutions = 0;
  const server = {
    id: 'counted',
    displayName: 'counted',
    languageIds: ['python'],
    extensions: { '.py': 'python' },
    resolve: () => {
      resolutions++;
      return { command: ['true'], source: 'path', settings: {} };
    },
  } as unknown as ServerDefinition;
  const conn = { server, pid: 1, readiness: { state: 'ready', snapshot: () => ({ ready: true, state: 'ready' }) } };
  const workspace = {
    registry: { forLanguage: () => server },
    setRoot: (dir: string) => Promise.resolve(realpathSync(dir)),
    setScope: () => Promise.resolve(),
    // The real connection resolves the server as it starts it (connectToBroker, startDirectConnection).
    connection: () => Promise.resolve(conn),
    liveConnections: () => Promise.resolve([conn]),
  };
  const ctx = { workspace, signal: new AbortController().signal, reportProgress: () => undefined } as unknown as ToolContext;
  return { answer: startLsp.handler(args, ctx) as Promise<Record<string, unknown>>, resolutions: () => resolutions };
}

describe('start_lsp told the language', () => {
  it('leaves resolving its server to the connection that starts it (no second resolution of its own)', async () => {
    const r = run({ root_dir: root, language_id: 'python' });
    expect(await r.answer).toMatchObject({ ready: true, root, servers: [expect.objectContaining({ language: 'python', ready: true })] });
    expect(r.resolutions()).toBe(0);
  });

  it('with a scope still says whether the server honours it (which needs it resolved)', async () => {
    const r = run({ root_dir: root, language_id: 'python', scope: ['.'] });
    const answer = await r.answer;
    expect(answer['scope']).toMatchObject({ servers: [expect.objectContaining({ server: 'counted' })] });
    expect(r.resolutions()).toBeGreaterThan(0);
  });
});
