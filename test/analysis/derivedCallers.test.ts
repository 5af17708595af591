import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES, REPO_ROOT } from '../helpers/paths.js';

/**
 * The derived fallback of find_callers: real pyright behind test/fixtures/capability-filter, which
 * hides its callHierarchyProvider (a custom server config makes it the Python server). Callers
 * must then come from references and the enclosing symbol of each, marked derived_from. The config
 * names pyright's readiness: a canary answers before pyright has read every file, and references
 * asked then miss the other files' uses.
 */

const PYRIGHT = join(dirname(createRequire(join(REPO_ROOT, 'packages', 'lsp', 'package.json')).resolve('pyright/package.json')), 'langserver.index.js');
const FILTER = join(FIXTURES, 'capability-filter', 'server.mjs');

interface Call {
  level: number;
  name: string;
  file: string;
  via?: string;
  call_sites: { file: string; line: number }[];
}

describe('find_callers without a call hierarchy (pyright with callHierarchyProvider hidden)', () => {
  let agent: AgentLspClient;
  let configDir: string;

  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'agent-lsp-nocallh-'));
    const config = join(configDir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'python', extensions: ['.py'], command: [process.execPath, FILTER, process.execPath, PYRIGHT, '--stdio'], readiness: 'pyright' }] }));
    agent = await startAgentLsp({ env: { AGENT_LSP_CONFIG: config, HIDE_CAPABILITIES: 'callHierarchyProvider' } });
    ok(await agent.call('start_lsp', { root_dir: join(FIXTURES, 'py-graph'), language_id: 'python' }));
    const caps = ok(await agent.call('get_server_capabilities', { language_id: 'python' }));
    expect(JSON.stringify(caps)).not.toContain('callHierarchyProvider');
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(configDir, { recursive: true, force: true });
  });

  it('derives the callers from references, grouped by enclosing function, and says so', async () => {
    const data = ok(await agent.call('find_callers', { file_path: 'graph/service.py', position_pattern: 'def @@summarize(' }));
    expect(data['derived_from']).toBe('references');
    expect((data['notes'] as string[]).join(' ')).toMatch(/no call hierarchy/);
    const calls = data['calls'] as Call[];
    // The imports are module-level uses; the calls sit in describe, main and test_summarize.
    expect(calls.map((c) => `${c.name} ${c.file} ${c.call_sites.length}`).sort()).toEqual(
      ['<module> graph/cli.py 1', '<module> tests/test_service.py 1', 'describe graph/service.py 1', 'main graph/cli.py 1', 'test_summarize tests/test_service.py 1'].sort(),
    );
  });

  it('derives two levels: the users of the users', async () => {
    const data = ok(await agent.call('find_callers', { file_path: 'graph/store.py', position_pattern: 'def @@load_rows(', depth: 2 }));
    expect(data['derived_from']).toBe('references');
    const names = (data['calls'] as Call[]).map((c) => `${c.level} ${c.name} ${c.file}${c.via ? ` via ${c.via}` : ''}`);
    expect(names).toEqual(expect.arrayContaining(['1 summarize graph/service.py', '2 main graph/cli.py via summarize', '2 describe graph/service.py via summarize', '2 test_summarize tests/test_service.py via summarize']));
  });

  it('lists a recursive function among its own users, and stops a cycle at the start', async () => {
    const data = ok(await agent.call('find_callers', { file_path: 'graph/tree.py', position_pattern: 'def @@depth(' }));
    expect(data['derived_from']).toBe('references');
    expect((data['calls'] as Call[]).map((c) => `${c.name} ${c.call_sites.map((s) => s.line).join(',')}`).sort()).toEqual(['deepest 15', 'depth 10']);
    const cycle = ok(await agent.call('find_callers', { file_path: 'graph/tree.py', position_pattern: 'def @@is_even(', depth: 4 }));
    expect((cycle['calls'] as Call[]).map((c) => `${c.level} ${c.name}${c.via ? ` via ${c.via}` : ''}`)).toEqual(['1 is_odd', '2 is_even via is_odd']);
  });

  it('outgoing calls: an explicit note, not an empty list that looks like "calls nothing"', async () => {
    const data = ok(await agent.call('find_callers', { file_path: 'graph/service.py', position_pattern: 'def @@summarize(', direction: 'outgoing' }));
    expect(data['calls']).toEqual([]);
    expect((data['notes'] as string[]).join(' ')).toMatch(/outgoing calls are not available/);
  });
});
