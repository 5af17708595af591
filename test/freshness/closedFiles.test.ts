// A file the server never opened for us reaches it only through a watcher, whose news lags the
// disk. An answer naming such a file right after it changed must still describe the new text.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { positionOf } from '../helpers/text.js';
import { definitionOfUse, PYTHON, TYPESCRIPT } from './scenarios.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

describe('a closed file changed on disk just before the query', () => {
  for (const s of [PYTHON, TYPESCRIPT]) {
    it(`${s.language}: go_to_definition into it answers the new line at once`, async () => {
      const root = join(scope.root(s.fixture), s.fixture);
      const front = await scope.front(scope.home());
      const a = join(root, s.target);
      ok(await front.call('start_lsp', { root_dir: root, language_id: s.language }));
      // Only B is opened; A is read by the server from disk.
      expect(await definitionOfUse(front, s)).toEqual([{ file: s.target, ...positionOf(a, s.definition) }]);
      for (let round = 0; round < 3; round++) {
        // No pause: the watcher has not reported the change when the query arrives.
        writeFileSync(a, s.inserted + readFileSync(a, 'utf8'));
        expect(await definitionOfUse(front, s)).toEqual([{ file: s.target, ...positionOf(a, s.definition) }]);
      }
    });
  }
});
