// A rename computed on a stale copy would write its edits at the old positions: after A changed on
// disk behind agent-lsp's back, rename_symbol must edit A's text as it is now.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { errorsOf, PYTHON } from './scenarios.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

async function renameAfterOutsideEdit(front: AgentLspClient, root: string): Promise<void> {
  const s = PYTHON;
  const a = join(root, s.target);
  ok(await front.call('start_lsp', { root_dir: root, language_id: s.language }));
  ok(await front.call('list_symbols', { file_path: s.target })); // A is open in the server now
  const before = readFileSync(a, 'utf8');
  // Outside agent-lsp: three lines on top of A, and a use of the name on one of them.
  writeFileSync(a, `# one\nLEGACY = "distance"\n# three\n${before}`);
  ok(await front.call('rename_symbol', { file_path: s.importer, position_pattern: s.use, new_name: 'span' }));
  // Every edit landed on the name as it is now: A is the new text with `distance` renamed, nothing else.
  expect(readFileSync(a, 'utf8')).toBe(`# one\nLEGACY = "distance"\n# three\n${before.replace(/\bdistance\b/g, 'span')}`);
  expect(readFileSync(join(root, s.importer), 'utf8')).not.toMatch(/\bdistance\b/);
  expect(await errorsOf(front, s.importer)).toEqual([]);
}

describe('rename after an outside edit of a file the server holds open', () => {
  it('python, through a broker', async () => {
    const root = join(scope.root(PYTHON.fixture), PYTHON.fixture);
    await renameAfterOutsideEdit(await scope.front(scope.home()), root);
  });

  it('python, direct mode', async () => {
    const root = join(scope.root(PYTHON.fixture), PYTHON.fixture);
    const front = await startAgentLsp({ env: { AGENT_LSP_HOME: scope.home() } });
    scope.fronts.push(front);
    await renameAfterOutsideEdit(front, root);
  });
});
