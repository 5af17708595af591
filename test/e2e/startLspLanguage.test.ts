// start_lsp told the language starts its server without counting the tree's files by language:
// that walk grew with the workspace (issue 33: 0.4–0.5 s of a fresh agent's start on Django) to
// say what the call already said. Without language_id it still counts them.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

// pyright is agent-lsp's own dependency (its default Python server): always there.
describe('start_lsp with language_id', () => {
  let agent: AgentLspClient;
  let root: string;
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-start-lang-')));
    mkdirSync(join(root, 'pkg'));
    writeFileSync(join(root, 'pkg', 'a.py'), 'def f() -> int:\n    return 1\n');
    writeFileSync(join(root, 'pkg', 'b.py'), 'from pkg.a import f\n\nf()\n');
    writeFileSync(join(root, 'web.ts'), 'export const x = 1;\n');
    agent = await startAgentLsp({ env: { AGENT_LSP_DAEMON: 'never' } });
  });
  afterAll(async () => {
    await agent?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('starts that server and does not detect the tree\'s languages', async () => {
    const answer = await agent.call('start_lsp', { root_dir: root, language_id: 'python' });
    const data = ok(answer);
    expect(data).toMatchObject({ ready: true, root });
    expect(data['servers']).toEqual([expect.objectContaining({ language: 'python', ready: true })]);
    expect(data['detected']).toBeUndefined();
    expect(answer.text).not.toMatch(/Languages found/);
  });

  it('without language_id counts the files of each language', async () => {
    const answer = await agent.call('start_lsp', { root_dir: root });
    expect(ok(answer)['detected']).toEqual(expect.arrayContaining([expect.objectContaining({ language: 'python', files: 2 }), expect.objectContaining({ language: 'typescript', files: 1 })]));
    expect(answer.text).toMatch(/Languages found: .*python \(2 files/);
  });
});
