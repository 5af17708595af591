// A module deleted on disk and put back (git checkout, mv back) between two calls: its importers
// say "Cannot find module" while it is gone, and resolve it again at once when it is back — in
// the same session, direct mode and through a broker — never "Cannot find module" settled as exact.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, type AgentLspClient } from '../helpers/mcpClient.js';
import { positionOf } from '../helpers/text.js';
import { definitionOfUse, TYPESCRIPT as s } from './scenarios.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

async function importerErrors(front: AgentLspClient): Promise<string[]> {
  const data = ok(await front.call('get_diagnostics', { file_path: s.importer }));
  return (data['diagnostics'] as { severity: string; message: string }[]).filter((d) => d.severity === 'error').map((d) => d.message);
}

for (const mode of ['never', 'always'] as const) {
  describe(`typescript: a module deleted and restored on disk (--daemon ${mode})`, () => {
    it('its importer cannot find it while it is gone, and resolves it again at once when it is back', async () => {
      const root = join(scope.root(s.fixture), s.fixture);
      const front = await scope.front(scope.home(), ['--daemon', mode]);
      ok(await front.call('start_lsp', { root_dir: root, language_id: s.language }));
      const target = join(root, s.target);
      const text = readFileSync(target, 'utf8');
      const definition = [{ file: s.target, ...positionOf(target, s.definition) }];
      expect(await importerErrors(front)).toEqual([]);
      expect(await definitionOfUse(front, s)).toEqual(definition);

      // git checkout of a branch without it, then back: deleted, then written again.
      rmSync(target);
      expect(await importerErrors(front)).toContainEqual(expect.stringMatching(/Cannot find module/));
      writeFileSync(target, text);
      expect(await importerErrors(front)).toEqual([]);
      expect(await definitionOfUse(front, s)).toEqual(definition);

      // mv away and back.
      renameSync(target, `${target}.moved`);
      expect(await importerErrors(front)).toContainEqual(expect.stringMatching(/Cannot find module/));
      renameSync(`${target}.moved`, target);
      expect(await importerErrors(front)).toEqual([]);
      expect(await definitionOfUse(front, s)).toEqual(definition);
    });
  });
}
