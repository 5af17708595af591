import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerPids, closeFront, EXPECTED_REFERENCES, fixtureRoot, PYTHON_DISTANCE, referenceCount, startFront, stopAllBrokers } from '../helpers/brokers.js';
import { ok, startAgentLsp } from '../helpers/mcpClient.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { temporaryHome } from '../helpers/testHome.js';

/**
 * `pnpm build` bundles the broker apart (dist/agent-lsp-broker.cjs, from packages/cli/src/brokerMain.ts):
 * a broker compiles and holds the broker and the LSP client, not the MCP SDK and the tools. The
 * loader runs it for `daemon-broker`, with a code cache of its own that the first broker stores.
 * The front bundle leaves the tools' JSON Schemas to a file beside it, read at each tools/list.
 */
const DIST = join(REPO_ROOT, 'dist');
let home: { home: string; remove(): void };
let root: string;

function brokerBuildId(): string {
  const id = /const BROKER_BUILD_ID = '([0-9a-f]{16})'/.exec(readFileSync(join(DIST, 'agent-lsp.mjs'), 'utf8'))?.[1];
  if (!id) throw new Error('dist/agent-lsp.mjs names no broker bundle: run `pnpm build`');
  return id;
}

/** This broker bundle's code caches, beside the bundle and in the test's home. */
function brokerCaches(id: string): string[] {
  const dirs = [DIST, join(home.home, 'code-cache')];
  return dirs.flatMap((dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`agent-lsp-broker-${id}-`) && f.endsWith('.v8-cache')).map((f) => join(dir, f)) : []));
}

beforeAll(() => {
  if (!existsSync(join(DIST, 'agent-lsp-broker.cjs'))) throw new Error('dist/agent-lsp-broker.cjs is missing: run `pnpm build`');
  home = temporaryHome();
  root = fixtureRoot('python-basic');
});

afterAll(async () => {
  await stopAllBrokers(home.home);
  home.remove();
  rmSync(root, { recursive: true, force: true });
});

describe('the broker bundle', () => {
  it('holds the broker without the MCP server or the tools, which the front bundle has', () => {
    const front = readFileSync(join(DIST, 'agent-lsp.cjs'), 'utf8');
    const broker = readFileSync(join(DIST, 'agent-lsp-broker.cjs'), 'utf8');
    for (const name of ['McpServer', 'find_references', 'ZodObject']) {
      expect(front, name).toContain(name);
      expect(broker, name).not.toContain(name);
    }
    expect(broker).toContain('daemon-broker');
    expect(broker.length).toBeLessThan(front.length / 2);
  });

  it('runs the broker a front starts, which answers and then stores its own code cache', async () => {
    const id = brokerBuildId();
    // A cache left by an earlier broker would be read, not written again.
    for (const file of brokerCaches(id)) rmSync(file, { force: true });
    const front = await startFront(home.home, ['--daemon', 'always']);
    try {
      ok(await front.call('start_lsp', { root_dir: root }));
      expect(await referenceCount(front, PYTHON_DISTANCE)).toBe(EXPECTED_REFERENCES);
      expect(brokerPids(home.home)).toHaveLength(1);
      // The broker stores it a few seconds after it started serving.
      for (let i = 0; i < 300 && brokerCaches(id).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      const caches = brokerCaches(id);
      expect(caches).toHaveLength(1);
      expect(readFileSync(caches[0]!).length).toBeGreaterThan(50_000);
    } finally {
      await closeFront(front);
    }
  }, 300_000);

  it('leaves the tools\' JSON Schemas to a file beside the front bundle, which tools/list sends', async () => {
    const front = readFileSync(join(DIST, 'agent-lsp.cjs'), 'utf8');
    const files = readdirSync(DIST).filter((f) => /^tool-schemas-[0-9a-f]{16}\.json$/.test(f));
    expect(files).toHaveLength(1);
    expect(front).toContain(JSON.stringify(files[0]));
    expect(front).not.toContain('inputSchema\\":{');
    const schemas = JSON.parse(readFileSync(join(DIST, files[0]!), 'utf8')) as Record<string, { inputSchema: unknown; outputSchema: unknown }>;
    const client = await startAgentLsp({ env: { AGENT_LSP_HOME: home.home } });
    try {
      const { tools } = await client.client.listTools();
      expect(tools.length).toBe(Object.keys(schemas).length);
      for (const tool of tools) expect({ name: tool.name, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema }).toEqual({ name: tool.name, ...schemas[tool.name] });
    } finally {
      await client.close();
    }
  }, 120_000);
});
