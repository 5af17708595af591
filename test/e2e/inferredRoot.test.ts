// Without start_lsp, a root inferred from a file path covers the whole project (never the file's
// package alone), every answer names it, and --root / AGENT_LSP_ROOT fix it for one-call clients.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

/**
 * proj/pkg/utils/funcs.py defines helper(), used from the package above it, a sibling subpackage
 * and a script outside the package; no VCS marker anywhere above.
 */
function packageTree(withPyproject: boolean): { proj: string; definition: string; scratch: string } {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-inferred-')));
  const proj = join(scratch, 'proj');
  const files: Record<string, string> = {
    'pkg/__init__.py': '',
    'pkg/utils/__init__.py': '',
    'pkg/utils/funcs.py': 'def helper(x: int) -> int:\n    return x + 1\n',
    'pkg/a.py': 'from pkg.utils.funcs import helper\n\nprint(helper(1))\n',
    'pkg/b/__init__.py': '',
    'pkg/b/c.py': 'from pkg.utils.funcs import helper\n\nVALUE = helper(2) + helper(3)\n',
    'scripts/run.py': 'from pkg.utils.funcs import helper\n\nhelper(4)\n',
  };
  if (withPyproject) files['pyproject.toml'] = '[project]\nname = "proj"\nversion = "0"\n';
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(proj, rel)), { recursive: true });
    writeFileSync(join(proj, rel), text);
  }
  return { proj, definition: join(proj, 'pkg/utils/funcs.py'), scratch };
}

/** The declaration, and in three other files one import and five calls. */
const EXPECTED = { total: 8, files: 4 };

let agent: AgentLspClient | undefined;
const scratches: string[] = [];

afterEach(async () => {
  await agent?.close();
  agent = undefined;
  for (const dir of scratches.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a root inferred from an absolute path', () => {
  for (const withPyproject of [true, false]) {
    it(`covers the outermost project (${withPyproject ? 'pyproject.toml at the top' : 'no project file at all'}) and says so`, async () => {
      const tree = packageTree(withPyproject);
      scratches.push(tree.scratch);
      agent = await startAgentLsp();
      const answer = await agent.call('find_references', { file_path: tree.definition, position_pattern: 'def @@helper(' });
      const data = ok(answer);
      expect(data).toMatchObject({ ...EXPECTED, complete: true, workspace_root: tree.proj, root_inferred: true });
      expect(answer.text).toContain(`workspace root inferred from the file path: ${tree.proj}`);
      // Later answers on the same root name it too; start_lsp makes it the agent's choice.
      const folders = ok(await agent.call('list_workspace_folders', {}));
      expect(folders).toMatchObject({ folders: [tree.proj], workspace_root: tree.proj, root_inferred: true });
      ok(await agent.call('start_lsp', { root_dir: tree.proj }));
      const after = ok(await agent.call('list_workspace_folders', {}));
      expect(after['root_inferred']).toBeUndefined();
    });
  }
});

describe('a root fixed at startup', () => {
  it('comes from --root or AGENT_LSP_ROOT, and is not marked inferred', async () => {
    const tree = packageTree(false);
    scratches.push(tree.scratch);
    agent = await startAgentLsp({ env: { AGENT_LSP_ROOT: tree.proj } });
    const fromEnv = ok(await agent.call('list_workspace_folders', {}));
    expect(fromEnv).toEqual({ ready: true, folders: [tree.proj] });
    await agent.close();
    agent = await startAgentLsp({ args: ['--root', tree.proj] });
    const detected = ok(await agent.call('detect_lsp_servers', {}));
    expect(detected).toMatchObject({ root: tree.proj, languages: [expect.objectContaining({ language: 'python', files: 7 })] });
    expect(detected['root_inferred']).toBeUndefined();
  });
});
