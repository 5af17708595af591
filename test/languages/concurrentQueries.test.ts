import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { FIXTURES } from '../helpers/paths.js';
import { LANGUAGE_CASES } from './cases.js';
import type { At, LanguageCase } from './languageCase.js';
import { OTHER_CASES } from './otherCases.js';

/**
 * An agent asks several queries at once on one front: each must get the answer it gets alone
 * (the language matrix asks them in sequence). Rows whose servers went wrong that way: a
 * diagnostics answer of 0 errors while the others opened files (basedpyright), a request the
 * server cancelled because another opened a file (pyrefly), a rename the server called content
 * modified (ty), a workspace symbol search before the module was indexed (terraform-ls).
 */

const WAIT = { ready_timeout_seconds: 120 };
// firstSearch: a workspace symbol search before any file is open finds the symbol (pyrefly
// answered "No symbol(s)" while it built its workspace index after start-up).
const ROWS: { c: LanguageCase; binary: string; rename: boolean; firstSearch: boolean }[] = [
  { name: 'python (basedpyright)', binary: 'basedpyright-langserver', rename: true, firstSearch: true },
  { name: 'python (pyrefly)', binary: 'pyrefly', rename: true, firstSearch: true },
  { name: 'python (ty)', binary: 'ty', rename: true, firstSearch: true },
  { name: 'terraform (terraform-ls)', binary: 'terraform-ls', rename: false, firstSearch: true },
].map((row) => ({ ...row, c: [...LANGUAGE_CASES, ...OTHER_CASES].find((r) => r.name === row.name)! }));

for (const { c, binary, rename, firstSearch } of ROWS) {
  const absent = !onPath(binary);
  describe.skipIf(absent)(absent ? `${c.name}: not run (${binary} not on PATH: ${c.install})` : c.name, () => {
    let agent: AgentLspClient;
    let root: string;
    beforeAll(async () => {
      root = realpathSync(mkdtempSync(join(tmpdir(), `agent-lsp-concurrent-${c.fixture}-`)));
      cpSync(join(FIXTURES, 'languages', c.fixture), root, { recursive: true });
      agent = await startAgentLsp({ args: [...(c.args ?? [])], cwd: root });
      const started = await agent.call('start_lsp', { root_dir: root, language_id: c.languageId, ready_timeout_seconds: 120 });
      expect(started.isError, started.text).toBe(false);
    });
    afterAll(async () => {
      await agent?.close();
      rmSync(root, { recursive: true, force: true });
    });

    if (firstSearch) {
      it('finds a symbol by a workspace search asked before any file is open', async () => {
        // terraform-ls indexes only the modules a file was opened in: it answered "No symbol(s)".
        const found = await agent.call('find_symbol', { query: c.symbol, language_id: c.languageId, ...WAIT });
        expect(found.isError, found.text).toBe(false);
        expect(found.text).toContain(c.declaration.file);
      });
    }

    it('answers queries asked at once as it answers them alone', async () => {
      const at = (a: At) => ({ file_path: a.file, position_pattern: a.pattern, ...WAIT });
      const [diagnostics, hover, references, outline, found, renamed] = await Promise.all([
        agent.call('get_diagnostics', { file_path: c.broken.file, ...WAIT }),
        agent.call('inspect_symbol', at(c.use)),
        agent.call('find_references', at(c.declaration)),
        agent.call('list_symbols', { file_path: c.declaration.file, format: 'flat', ...WAIT }),
        agent.call('find_symbol', { query: c.symbol, language_id: c.languageId, ...WAIT }),
        rename ? agent.call('rename_symbol', { ...at(c.declaration), new_name: `${c.symbol}Renamed`, dry_run: true }) : undefined,
      ]);
      for (const answer of [diagnostics, hover, references, outline, found, renamed]) expect(answer?.isError, answer?.text).not.toBe(true);
      expect(diagnostics.text).not.toMatch(/^0 error/);
      expect(found.text).toContain(c.declaration.file);
      expect(references.text).toContain(c.use.file);
      if (renamed) expect(renamed.text).toContain(c.use.file);
    });
  });
}
