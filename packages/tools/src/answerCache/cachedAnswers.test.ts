import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ServerDefinition } from '@agent-lsp/lsp';
import { defineTool, READ_ONLY, type ToolContext } from '../catalog/toolDefinition.js';
import { withAnswerCache } from './cachedAnswers.js';

/** A server whose every resolution is counted (the probe keys answers on its resolved settings). */
function countingServer(): { server: ServerDefinition; resolutions: () => number } {
  let n = 0;
  const server = {
    id: 'counted',
    displayName: 'counted',
    languageIds: ['python'],
    extensions: { '.py': 'python' },
    resolve: () => {
      n++;
      return { command: ['true'], source: 'path', settings: {}, profileFingerprint: 'counted' };
    },
  } as unknown as ServerDefinition;
  return { server, resolutions: () => n };
}

/** Just what the answer cache's probe reads of a tool context: one root, the file's server. */
function context(root: string, server: ServerDefinition): ToolContext {
  const workspace = {
    ensureRoots: () => Promise.resolve(),
    primaryRoot: root,
    rootList: [root],
    indexScope: [],
    resolveFile: (p: string) => join(root, p),
    display: (p: string) => relative(root, p),
    registry: { forFile: () => ({ server, languageId: 'python' }), forLanguage: () => server },
  };
  return { workspace, signal: new AbortController().signal, logger: { warn: () => undefined } } as unknown as ToolContext;
}

describe('withAnswerCache', () => {
  const saved = { home: process.env['AGENT_LSP_HOME'], setting: process.env['AGENT_LSP_ANSWER_CACHE'] };
  const dirs: string[] = [];
  afterEach(() => {
    for (const [key, value] of [['AGENT_LSP_HOME', saved.home], ['AGENT_LSP_ANSWER_CACHE', saved.setting]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  function setUp(setting: string | undefined, answers: { ready: boolean; partial?: string }[] = [{ ready: true }]) {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-cached-'));
    dirs.push(dir);
    process.env['AGENT_LSP_HOME'] = join(dir, '.agent-lsp-home');
    if (setting === undefined) delete process.env['AGENT_LSP_ANSWER_CACHE'];
    else process.env['AGENT_LSP_ANSWER_CACHE'] = setting;
    // The root is the temp dir itself (one file in it): the state of a workspace is its files.
    writeFileSync(join(dir, 'a.py'), 'def f(): ...\n');
    const { server, resolutions } = countingServer();
    let live = 0;
    const tool = withAnswerCache(
      defineTool({
        name: 'find_references',
        title: 't',
        description: 'd',
        group: 'navigation',
        input: () => ({ file_path: z.string() }),
        output: () => ({ ready: z.boolean(), partial: z.string().optional() }),
        annotations: READ_ONLY,
        handler: () => Promise.resolve(answers[Math.min(live++, answers.length - 1)]!),
        text: () => '',
      }),
    );
    return { call: () => tool.handler({ file_path: 'a.py' }, context(dir, server)), resolutions, live: () => live };
  }

  it('a workspace that did not opt in: answers live without resolving the server for a cache key (a fresh front\'s first query pays nothing for a cache that is off)', async () => {
    const off = setUp(undefined);
    await off.call();
    expect(off.live()).toBe(1);
    expect(off.resolutions()).toBe(0);
    // Opted in, the same call keys its answer on the server's resolved settings: what the test above watches.
    const on = setUp('on');
    await on.call();
    expect(on.live()).toBe(1);
    expect(on.resolutions()).toBeGreaterThan(0);
  });

  it('keeps no answer made while the index was partial: once the index is whole, the call is answered live and whole', async () => {
    const on = setUp('on', [{ ready: true, partial: 'clangd did not build 1 changed file(s)' }, { ready: true }]);
    expect(await on.call()).toMatchObject({ partial: expect.any(String) });
    const second = await on.call();
    expect(on.live()).toBe(2);
    expect(second).not.toHaveProperty('partial');
    // A whole answer is kept (the store takes it in memory before the handler returns).
    expect(await on.call()).toMatchObject({ from_cache: expect.any(Object) });
    expect(on.live()).toBe(2);
  });
});
