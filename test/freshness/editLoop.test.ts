// An agent's loop: edit a file with its own tool, ask, edit the same file again, ask. Each answer
// must describe the file as the last edit left it: a second write within seconds of one the
// door already reported was taken for the echo of the first (packages/broker/src/watcher.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { GRAPH_CASES } from './scenarios.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});


for (const mode of ['always', 'never'] as const) {
  describe(`the same file edited outside agent-lsp again and again, a query after each edit (--daemon ${mode})`, () => {
    for (const c of GRAPH_CASES) {
      it(`${c.language}: every find_references counts the calls the last edit left`, async () => {
        const root = join(scope.root(c.fixture), c.fixture);
        const front = await scope.front(scope.home(), ['--daemon', mode]);
        ok(await front.call('start_lsp', { root_dir: root, language_id: c.language }));
        const count = async () => {
          const data = ok(await front.call('find_references', { ...c.query, limit: 1000 }));
          return (data['locations'] as { file: string }[]).filter((r) => r.file === c.user).length;
        };
        const user = join(root, c.user);
        const original = readFileSync(user, 'utf8');
        const before = await count();
        let text = original;
        for (let i = 1; i <= 4; i++) {
          text += c.call(`run${i}`);
          writeFileSync(user, text);
          expect(await count()).toBe(before + i);
        }
        writeFileSync(user, original);
        expect(await count()).toBe(before);
      });
    }
  });
}
