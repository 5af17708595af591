// The workspace root removed and made again at the same path (`rm -rf repo && git clone … repo`,
// a fresh copy): watchers on the old directory see nothing of the new one, and a server (a broker's,
// kept warm for the next agent) kept answering from the tree it had loaded — references missing,
// or only the asked file's own. The next query must describe the new directory.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, closeFront } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';
import { GRAPH_CASES } from './scenarios.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});


for (const mode of ['always', 'never'] as const) {
  describe(`the workspace root removed and copied again between two queries (--daemon ${mode})`, () => {
    for (const c of GRAPH_CASES) {
      it(`${c.language}: find_references describes the new directory`, async () => {
        const root = join(scope.root(c.fixture), c.fixture);
        const home = scope.home();
        const front = await scope.front(home, ['--daemon', mode]);
        ok(await front.call('start_lsp', { root_dir: root, language_id: c.language }));
        const files = async () => {
          const data = ok(await front.call('find_references', { ...c.query, limit: 1000 }));
          return (data['locations'] as { file: string }[]).map((r) => r.file).sort();
        };
        const before = await files();
        expect(new Set(before).size).toBeGreaterThan(2);
        const expected = [...before, c.user].sort();
        const replaceRoot = async () => {
          rmSync(root, { recursive: true, force: true });
          // The watchers (batching 100 ms) have reported the removal by the time the new copy appears,
          // and the copy before the user's edit.
          await new Promise((r) => setTimeout(r, 500));
          cpSync(join(FIXTURES, c.fixture), root, { recursive: true });
          await new Promise((r) => setTimeout(r, 500));
          const user = join(root, c.user);
          writeFileSync(user, readFileSync(user, 'utf8') + c.call('again'));
        };
        await replaceRoot();
        expect(await files()).toEqual(expected);
        // Between two agents' sessions: the next one (on the broker kept warm) asks.
        await closeFront(front);
        await replaceRoot();
        const next = await scope.front(home, ['--daemon', mode]);
        ok(await next.call('start_lsp', { root_dir: root, language_id: c.language }));
        const data = ok(await next.call('find_references', { ...c.query, limit: 1000 }));
        expect((data['locations'] as { file: string }[]).map((r) => r.file).sort()).toEqual(expected);
      });
    }
  });
}
