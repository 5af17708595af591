// A file the server never opened changes on disk (written in place, as an agent's edit tool does)
// right before the diagnostics of a file importing it are asked for: the watcher's news must reach
// the server before it answers, not a batch later.
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

async function importerSeesTheChange(front: AgentLspClient, root: string): Promise<void> {
  const s = PYTHON;
  const a = join(root, s.target);
  ok(await front.call('start_lsp', { root_dir: root, language_id: s.language }));
  expect(await errorsOf(front, s.importer)).toEqual([]);
  writeFileSync(a, readFileSync(a, 'utf8').replace(s.rename[0], s.rename[1]));
  const errors = await errorsOf(front, s.importer);
  expect(errors.map((e) => e.message)).toContainEqual(expect.stringMatching(s.missing));
}

describe('a closed file changed in place just before the query', () => {
  it('python, through a broker: the importer\'s diagnostics describe the new text at once', async () => {
    const root = join(scope.root(PYTHON.fixture), PYTHON.fixture);
    await importerSeesTheChange(await scope.front(scope.home()), root);
  });

  it('python, direct mode: the importer\'s diagnostics describe the new text at once', async () => {
    const root = join(scope.root(PYTHON.fixture), PYTHON.fixture);
    const front = await startAgentLsp({ env: { AGENT_LSP_HOME: scope.home() } });
    scope.fronts.push(front);
    await importerSeesTheChange(front, root);
  });
});
