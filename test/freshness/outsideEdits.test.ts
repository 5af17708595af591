// Read-your-writes: a file changed on disk outside agent-lsp after a query opened it is what the
// next answers describe — in daemon mode (through a broker) and in direct mode (--daemon never).
import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { startAgentLsp } from '../helpers/mcpClient.js';
import { outsideEditsReachTheServer, PYTHON, TYPESCRIPT } from './scenarios.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

describe('outside edits to an opened file reach the server before the next answer', () => {
  for (const s of [PYTHON, TYPESCRIPT]) {
    it(`${s.language}, through a broker`, async () => {
      const home = scope.home();
      const root = join(scope.root(s.fixture), s.fixture);
      const front = await scope.front(home);
      await outsideEditsReachTheServer(front, root, s);
    });

    it(`${s.language}, direct mode (--daemon never)`, async () => {
      const home = scope.home();
      const root = join(scope.root(s.fixture), s.fixture);
      const front = await startAgentLsp({ env: { AGENT_LSP_HOME: home } });
      scope.fronts.push(front);
      await outsideEditsReachTheServer(front, root, s);
    });
  }
});
