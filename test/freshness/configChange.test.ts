// A project configuration file changed on disk (pyproject.toml's [tool.pyright], tsconfig.json's
// include) decides which files a server searches. The servers apply such a change later than they
// hear of it, so a query sent at once used to be answered under the old configuration; the query
// must wait until the server has applied it (packages/lsp/src/configReload.ts).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { GRAPH_CASES, type GraphCase } from './scenarios.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

/** What excludes tests/ from a graph fixture's project, in its configuration file. */
const CONFIG: Record<GraphCase['language'], { file: string; withoutTests: (text: string) => string }> = {
  python: { file: 'pyproject.toml', withoutTests: (text) => `${text}\n[tool.pyright]\nexclude = ["tests"]\n` },
  typescript: { file: 'tsconfig.json', withoutTests: (text) => JSON.stringify({ ...(JSON.parse(text) as object), include: ['src'] }) },
};

for (const mode of ['always', 'never'] as const) {
  describe(`a project configuration file changed on disk just before the query (--daemon ${mode})`, () => {
    for (const c of GRAPH_CASES) {
      it(`${c.language}: ${CONFIG[c.language].file} excluding tests/ takes tests/ out of find_references at once, and putting it back brings them back`, async () => {
        const root = join(scope.root(c.fixture), c.fixture);
        const front = await scope.front(scope.home(), ['--daemon', mode]);
        ok(await front.call('start_lsp', { root_dir: root, language_id: c.language }));
        const files = async () => {
          const data = ok(await front.call('find_references', { ...c.query, limit: 1000 }));
          return [...new Set((data['locations'] as { file: string }[]).map((r) => r.file))].sort();
        };
        const before = await files();
        expect(before.some((f) => f.startsWith('tests/'))).toBe(true);
        const config = join(root, CONFIG[c.language].file);
        const original = readFileSync(config, 'utf8');
        for (let round = 0; round < 2; round++) {
          // No pause between the write and the query.
          writeFileSync(config, CONFIG[c.language].withoutTests(original));
          expect(await files()).toEqual(before.filter((f) => !f.startsWith('tests/')));
          writeFileSync(config, original);
          expect(await files()).toEqual(before);
        }
      });
    }

    const python = GRAPH_CASES.find((c) => c.language === 'python')!;
    it('python: a pyrightconfig.json created beside pyproject.toml (which pyright does not watch for) takes tests/ out at once, and removing it brings them back', async () => {
      const root = join(scope.root(python.fixture), python.fixture);
      const front = await scope.front(scope.home(), ['--daemon', mode]);
      ok(await front.call('start_lsp', { root_dir: root, language_id: 'python' }));
      const files = async () => {
        const data = ok(await front.call('find_references', { ...python.query, limit: 1000 }));
        return [...new Set((data['locations'] as { file: string }[]).map((r) => r.file))].sort();
      };
      const before = await files();
      expect(before.some((f) => f.startsWith('tests/'))).toBe(true);
      const config = join(root, 'pyrightconfig.json');
      for (let round = 0; round < 2; round++) {
        writeFileSync(config, JSON.stringify({ exclude: ['tests'] }));
        expect(await files()).toEqual(before.filter((f) => !f.startsWith('tests/')));
        rmSync(config);
        expect(await files()).toEqual(before);
      }
    });
  });
}
