import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { FIXTURES } from '../helpers/paths.js';

/**
 * find_callers and type_hierarchy with gopls and clangd, found on PATH. When one is missing its
 * tests are skipped, and the console and the test title say so plainly.
 */

interface Entry {
  name: string;
  file: string;
  level: number;
  via?: string;
}

function summary(list: unknown): string[] {
  return (list as Entry[]).map((e) => `${e.level} ${e.name} ${e.file}${e.via ? ` via ${e.via}` : ''}`).sort();
}

function server(binary: string, install: string): { installed: boolean; title: string } {
  const installed = onPath(binary);
  if (!installed) console.warn(`${binary} is not installed: its tests did not run (${install})`);
  return { installed, title: installed ? binary : `${binary} (NOT INSTALLED — did not run)` };
}

const gopls = server('gopls', 'apt-get install gopls');
const clangd = server('clangd', 'apt-get install clangd');

describe.skipIf(!gopls.installed)(`${gopls.title}: call and type hierarchy`, () => {
  let agent: AgentLspClient;

  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: join(FIXTURES, 'go-graph'), language_id: 'go' }));
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('find_callers: gopls answers natively, two levels deep, across packages and the test file', async () => {
    const data = ok(await agent.call('find_callers', { file_path: 'graph/store.go', position_pattern: 'func @@LoadRows', depth: 2 }));
    expect(data['derived_from']).toBeUndefined();
    expect(summary(data['calls'])).toEqual(['1 Summarize graph/service.go', '2 TestSummarize graph/service_test.go via Summarize', '2 main main.go via Summarize']);
    const out = ok(await agent.call('find_callers', { file_path: 'graph/service.go', position_pattern: 'func @@Summarize', direction: 'outgoing' }));
    expect(summary(out['calls'])).toEqual(['1 LoadRows graph/store.go']);
  });

  it('find_callers: a recursive function is its own caller and callee; a cycle stops at the start', async () => {
    const data = ok(await agent.call('find_callers', { file_path: 'graph/tree.go', position_pattern: 'func @@Depth', direction: 'both' }));
    expect(summary(data['calls'])).toEqual(['1 Deepest graph/tree.go', '1 Depth graph/tree.go', '1 Depth graph/tree.go']);
    const cycle = ok(await agent.call('find_callers', { file_path: 'graph/tree.go', position_pattern: 'func @@Even', depth: 4 }));
    expect(summary(cycle['calls'])).toEqual(['1 Odd graph/tree.go', '2 Even graph/tree.go via Odd']);
  });

  it('type_hierarchy: gopls\'s own (v0.16 and later), else derived from implementations', async () => {
    const sub = ok(await agent.call('type_hierarchy', { file_path: 'graph/shapes.go', position_pattern: 'type @@HasArea', direction: 'subtypes' }));
    const native = JSON.stringify(ok(await agent.call('get_server_capabilities', { language_id: 'go' }))).includes('typeHierarchyProvider');
    expect(sub['derived_from']).toBe(native ? undefined : 'implementations');
    expect(summary(sub['subtypes'])).toEqual(['1 Circle graph/shapes.go', '1 Square graph/shapes.go']);
    const sup = ok(await agent.call('type_hierarchy', { file_path: 'graph/shapes.go', position_pattern: 'type @@Square', direction: 'supertypes' }));
    expect(summary(sup['supertypes'])).toEqual(['1 HasArea graph/shapes.go']);
  });
});

describe.skipIf(!clangd.installed)(`${clangd.title}: call and type hierarchy`, () => {
  let agent: AgentLspClient;

  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: join(FIXTURES, 'cpp-graph'), language_id: 'cpp' }));
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('find_callers: incoming natively two levels deep; outgoing says plainly when clangd has none', async () => {
    const data = ok(await agent.call('find_callers', { file_path: 'store.cpp', position_pattern: 'int @@loadRows', depth: 2 }));
    expect(summary(data['calls'])).toEqual(['1 summarize service.cpp', '2 main main.cpp via summarize']);
    const out = ok(await agent.call('find_callers', { file_path: 'service.cpp', position_pattern: 'int @@summarize', direction: 'outgoing' }));
    const calls = out['calls'] as Entry[];
    // clangd 20 answers outgoing calls; older ones refuse the request, and the answer says so.
    if (calls.length === 0) expect((out['notes'] as string[]).join(' ')).toMatch(/outgoing calls are not available/);
    else expect(summary(calls)).toEqual(['1 loadRows store.cpp']);
  });

  it('get_editing_context: uses from other files, and a note where clangd refuses outgoing calls', async () => {
    const data = ok(await agent.call('get_editing_context', { file_path: 'service.cpp' }));
    const users = (data['callers'] as { symbol: string; user?: string; file: string }[]).map((c) => `${c.symbol} ${c.user ?? '<module>'} ${c.file}`);
    expect(users).toContain('summarize main main.cpp');
    const calls = data['calls'] as { name: string }[];
    if (calls.length === 0) expect((data['notes'] as string[]).join(' ')).toMatch(/refused outgoing calls/);
    else expect(calls.map((c) => c.name)).toEqual(['loadRows']);
  });

  it('type_hierarchy: bases and derived structs, two levels', async () => {
    const data = ok(await agent.call('type_hierarchy', { file_path: 'shapes.h', position_pattern: 'struct @@Shape :' }));
    expect(summary(data['supertypes'])).toEqual(['1 HasArea shapes.h']);
    expect(summary(data['subtypes'])).toEqual(['1 Rectangle shapes.h', '2 Square shapes.h via Rectangle']);
  });
});
