// resources/read answers each template with what the matching tool answers, on real pyright and typescript-language-server.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureRoot } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { positionOf } from '../helpers/text.js';
import { readResource } from './agentNews.js';

describe('MCP resources', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = fixtureRoot('python-basic', 'ts-basic');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('offers the three templates and declares subscriptions', async () => {
    expect(agent.client.getServerCapabilities()?.resources).toMatchObject({ subscribe: true });
    const { resourceTemplates } = await agent.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['lsp-completions://{+path}{?line,column}', 'lsp-diagnostics://{+path}', 'lsp-hover://{+path}{?line,column}']);
  });

  it('reads diagnostics of a Python and a TypeScript file as get_diagnostics answers them', async () => {
    for (const file of ['python-basic/app/broken.py', 'ts-basic/src/broken.ts']) {
      const fromResource = await readResource(agent, `lsp-diagnostics://${join(root, file)}`);
      const fromTool = ok(await agent.call('get_diagnostics', { file_path: file }));
      expect(fromResource['diagnostics'], file).toEqual(fromTool['diagnostics']);
      expect(fromResource['errors'], file).toBeGreaterThanOrEqual(2);
      expect(fromResource).toMatchObject({ ready: true, files: [expect.objectContaining({ file })] });
    }
    // Both files are open now: the resource without a path covers them both, and the list names them.
    const all = await readResource(agent, 'lsp-diagnostics://');
    expect((all['files'] as { file: string }[]).map((f) => f.file).sort()).toEqual(expect.arrayContaining(['python-basic/app/broken.py', 'ts-basic/src/broken.ts']));
    const { resources } = await agent.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['lsp-diagnostics://', `lsp-diagnostics://${join(root, 'python-basic/app/broken.py')}`]));
  });

  it('reads hover and completions at 1-based positions, as inspect_symbol and get_completions do', async () => {
    const routes = join(root, 'python-basic/app/routes.py');
    const at = positionOf(routes, 'distance(a, b)');
    const hover = await readResource(agent, `lsp-hover://${routes}?line=${at.line}&column=${at.column}`);
    expect(hover).toMatchObject({ ready: true, found: true });
    expect(hover['contents']).toMatch(/def distance\(\s*a: Point,\s*b: Point\s*\) -> float/);
    expect(hover).toEqual(ok(await agent.call('inspect_symbol', { file_path: routes, ...at })));

    const main = join(root, 'ts-basic/src/main.ts');
    const tsAt = positionOf(main, 'totalArea');
    const tsHover = await readResource(agent, `lsp-hover://${main}?line=${tsAt.line}&column=${tsAt.column}`);
    expect(tsHover['contents']).toContain('totalArea');

    const geometry = join(root, 'python-basic/app/geometry.py');
    const member = positionOf(geometry, 'a.x - b.x');
    const completions = await readResource(agent, `lsp-completions://${geometry}?line=${member.line}&column=${member.column + 2}`);
    const labels = (completions['items'] as { label: string }[]).map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['x', 'y']));
  });

  it('refuses a URI it cannot answer with a message that says what to send', async () => {
    await expect(agent.client.readResource({ uri: `lsp-hover://${join(root, 'python-basic/app/routes.py')}?line=0&column=1` })).rejects.toThrow(/line must be a 1-based integer/);
    await expect(agent.client.readResource({ uri: 'lsp-symbols:///x.py' })).rejects.toThrow(/Unknown resource scheme/);
    await expect(agent.client.readResource({ uri: `lsp-diagnostics://${join(root, 'python-basic/app/missing.py')}` })).rejects.toThrow(/missing\.py/);
    await expect(agent.client.subscribeResource({ uri: `lsp-hover://${join(root, 'python-basic/app/routes.py')}?line=1&column=1` })).rejects.toThrow(/Only diagnostics resources/);
  });
});
