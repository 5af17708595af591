// A document a broker keeps open after the last front let go ("lingering") must not outlive the
// file it was read from: the next session's answers describe the disk, even when no watcher
// event says the file changed.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope, closeFront } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { positionOf } from '../helpers/text.js';
import { definitionOfUse, type OutsideEditScenario } from './scenarios.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

describe('a lingering broker document changed between two sessions', () => {
  it('is resynced before the next session asks about it, though the watcher ignores its directory', async () => {
    const home = scope.home();
    const root = join(scope.root('python-basic'), 'python-basic');
    // Generated code under build/: no watcher reports changes there (it is a directory nobody
    // indexes), yet an agent may still open it and navigate into it.
    mkdirSync(join(root, 'build'));
    const generated = join(root, 'build', 'gen.py');
    writeFileSync(generated, 'def scale(x: float) -> float:\n    return x * 2\n');
    writeFileSync(join(root, 'app', 'uses_gen.py'), 'from build.gen import scale\n\nprint(scale(2.0))\n');
    const s: OutsideEditScenario = {
      language: 'python',
      fixture: 'python-basic',
      target: 'build/gen.py',
      importer: 'app/uses_gen.py',
      use: 'print(@@scale(2.0))',
      definition: 'scale(x: float)',
      inserted: '# one\n# two\n# three\n',
      rename: ['def scale(', 'def grow('],
      missing: /scale/,
    };

    const first = await scope.front(home);
    ok(await first.call('start_lsp', { root_dir: root, language_id: 'python' }));
    ok(await first.call('list_symbols', { file_path: s.target }));
    expect(await definitionOfUse(first, s)).toEqual([{ file: s.target, ...positionOf(generated, s.definition) }]);
    await closeFront(first);

    writeFileSync(generated, s.inserted + readFileSync(generated, 'utf8'));

    const second = await scope.front(home);
    ok(await second.call('start_lsp', { root_dir: root, language_id: 'python' }));
    expect(await definitionOfUse(second, s)).toEqual([{ file: s.target, ...positionOf(generated, s.definition) }]);
    expect(positionOf(generated, s.definition).line).toBe(4);
  });
});
