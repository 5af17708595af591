// list_symbols gives the outline an agent wants: top-level symbols and class members, and the
// locals inside functions only when asked.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

const REPO_PY = `import os

LIMIT = 10


class Repo:
    table = "items"

    def __init__(self, path):
        cache = {}
        self.path = path

    def load(self, key):
        full = os.path.join(self.path, key)
        for line in open(full):
            parsed = line.strip()
        return full

    class Meta:
        ordering = ["id"]


def helper(x):
    doubled = x * 2

    def inner():
        return doubled

    return inner
`;

const OUTLINE = ['LIMIT', 'Repo', 'table', '__init__', 'load', 'Meta', 'ordering', 'helper'];
const LOCALS = ['cache', 'full', 'line', 'parsed', 'doubled', 'inner'];

describe('list_symbols on Python', () => {
  let agent: AgentLspClient;
  let root: string;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-outline-')));
    writeFileSync(join(root, 'repo.py'), REPO_PY);
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists top-level symbols and class members, not the locals inside functions', async () => {
    const answer = await agent.call('list_symbols', { file_path: 'repo.py' });
    const data = ok(answer);
    const names = (data['symbols'] as { name: string }[]).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(OUTLINE));
    for (const local of LOCALS) expect(names).not.toContain(local);
    expect(data['locals_omitted']).toBeGreaterThanOrEqual(LOCALS.length);
    expect(answer.text).toMatch(/local symbol\(s\) inside functions not listed; include_locals: true lists them/);
  });

  it('lists the locals too with include_locals', async () => {
    const data = ok(await agent.call('list_symbols', { file_path: 'repo.py', include_locals: true }));
    const symbols = data['symbols'] as { name: string; container?: string }[];
    expect(symbols.map((s) => s.name)).toEqual(expect.arrayContaining([...OUTLINE, ...LOCALS]));
    expect(symbols).toContainEqual(expect.objectContaining({ name: 'doubled', container: 'helper' }));
    expect(data['locals_omitted']).toBe(0);
  });
});
