// Read-your-writes with gopls (direct mode: gopls never runs behind a broker by default), and the
// front's own watcher, without which gopls never hears of files changed outside agent-lsp.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, startAgentLsp } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { errorsOf, eventually, GO, outsideEditsReachTheServer } from './scenarios.js';


const installed = onPath('gopls');
if (!installed) console.warn('gopls is not installed: its freshness tests did not run (apt-get install gopls)');
const title = installed ? 'gopls' : 'gopls (NOT INSTALLED — did not run)';
/** gopls publishes an importer's errors when it has re-checked the package, not on request. */
const GOPLS_SETTLES_MS = 60_000;

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

describe.skipIf(!installed)(title, () => {
  it('an opened file changed on disk is what definitions and the importer\'s diagnostics describe', async () => {
    const root = join(scope.root(GO.fixture), GO.fixture);
    const front = await startAgentLsp({ env: { AGENT_LSP_HOME: scope.home() } });
    scope.fronts.push(front);
    await outsideEditsReachTheServer(front, root, GO, GOPLS_SETTLES_MS);
  });

  it('a file never opened, renamed in on disk, gives its importer an error (the front watches for gopls)', async () => {
    const root = join(scope.root(GO.fixture), GO.fixture);
    const front = await startAgentLsp({ env: { AGENT_LSP_HOME: scope.home() } });
    scope.fronts.push(front);
    ok(await front.call('start_lsp', { root_dir: root, language_id: 'go' }));
    expect(await errorsOf(front, GO.importer)).toEqual([]);
    const geometry = join(root, GO.target);
    writeFileSync(geometry, readFileSync(geometry, 'utf8').replace(GO.rename[0], GO.rename[1]));
    const errors = await eventually(() => errorsOf(front, GO.importer), (e) => e.length > 0, GOPLS_SETTLES_MS);
    expect(errors.map((e) => e.message)).toContainEqual(expect.stringMatching(GO.missing));
  });
});
