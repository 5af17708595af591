// A file created outside agent-lsp (by an agent's own edit tool, git checkout, a generator) that
// uses a symbol must be among that symbol's references at the next query, and gone once deleted;
// the same for a file nobody opened that starts using it, or that is deleted. The query follows
// the write at once.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok } from '../helpers/mcpClient.js';
import { PYTHON, TYPESCRIPT } from './scenarios.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

const NEW_FILE = {
  python: { path: 'app/extra_user.py', text: 'from app.geometry import distance, Point\n\nprint(distance(Point(0, 0), Point(1, 1)))\n' },
  typescript: { path: 'src/extraUser.ts', text: 'import { totalArea } from "./shapes.js";\n\nexport const none = totalArea([]);\n' },
} as const;

/** A file using the symbol, in a directory that does not exist yet. */
const NESTED_FILE = {
  python: { path: 'app/fresh_pkg/user.py', text: 'from app.geometry import distance, Point\n\nprint(distance(Point(0, 0), Point(2, 2)))\n' },
  typescript: { path: 'src/freshDir/user.ts', text: 'import { totalArea } from "../shapes.js";\n\nexport const nested = totalArea([]);\n' },
} as const;

/** A file of the fixture that does not use the symbol, and what makes it use it. */
const OTHER_FILE = {
  python: { path: 'app/__init__.py', append: '\nfrom app.geometry import distance as _d\n_d\n' },
  typescript: { path: 'src/needsImport.ts', append: '\nimport { totalArea as _t } from "./shapes.js";\nexport const _u = _t([]);\n' },
} as const;

for (const mode of ['always', 'never'] as const) {
  describe(`a file created or changed on disk outside agent-lsp, just before the query (--daemon ${mode})`, () => {
    for (const s of [PYTHON, TYPESCRIPT]) {
      it(`${s.language}: its uses are references at once, and leave with it`, async () => {
        const root = join(scope.root(s.fixture), s.fixture);
        const front = await scope.front(scope.home(), ['--daemon', mode]);
        ok(await front.call('start_lsp', { root_dir: root, language_id: s.language }));
        const refs = async () => {
          const data = ok(await front.call('find_references', { file_path: s.importer, position_pattern: s.use, limit: 1000 }));
          return (data['locations'] as { file: string }[]).map((r) => r.file);
        };
        const before = await refs();
        const created = NEW_FILE[s.language as 'python' | 'typescript'];
        expect(before).not.toContain(created.path);
        // No pause between the write and the query: the watcher has not reported it yet.
        writeFileSync(join(root, created.path), created.text);
        expect(await refs()).toContain(created.path);
        rmSync(join(root, created.path));
        expect(await refs()).toEqual(before);
        // An existing file nobody opened starts using the symbol.
        const other = join(root, OTHER_FILE[s.language as 'python' | 'typescript'].path);
        const otherBefore = readFileSync(other, 'utf8');
        writeFileSync(other, otherBefore + OTHER_FILE[s.language as 'python' | 'typescript'].append);
        expect(await refs()).toContain(OTHER_FILE[s.language as 'python' | 'typescript'].path);
        writeFileSync(other, otherBefore);
        expect(await refs()).toEqual(before);
        // A directory made and a file written in it at once (chokidar may know the directory but
        // not have read it yet when the query comes).
        const nested = NESTED_FILE[s.language as 'python' | 'typescript'];
        mkdirSync(join(root, dirname(nested.path)));
        writeFileSync(join(root, nested.path), nested.text);
        expect(await refs()).toContain(nested.path);
        // A file of the fixture nobody opened, that uses the symbol, deleted (chokidar forgets a
        // file when the OS names it, before it reports the deletion).
        const user = before.find((f) => f !== s.importer && f !== s.target);
        expect(user).toBeDefined();
        rmSync(join(root, user!));
        expect(await refs()).not.toContain(user);
      });

      it(`${s.language}: the files of a directory nobody opened leave at once when it is removed or renamed`, async () => {
        const root = join(scope.root(s.fixture), s.fixture);
        const nested = NESTED_FILE[s.language as 'python' | 'typescript'];
        const [dir, name] = [dirname(nested.path), nested.path.slice(dirname(nested.path).length + 1)];
        // Two such directories exist before the front starts: nothing has opened their files.
        for (const d of [`${dir}_moved`, `${dir}_removed`]) {
          mkdirSync(join(root, d));
          writeFileSync(join(root, d, name), nested.text);
        }
        const front = await scope.front(scope.home(), ['--daemon', mode]);
        ok(await front.call('start_lsp', { root_dir: root, language_id: s.language }));
        const refs = async () => {
          const data = ok(await front.call('find_references', { file_path: s.importer, position_pattern: s.use, limit: 1000 }));
          return (data['locations'] as { file: string }[]).map((r) => r.file);
        };
        const before = await refs();
        expect(before).toEqual(expect.arrayContaining([`${dir}_moved/${name}`, `${dir}_removed/${name}`]));
        rmSync(join(root, `${dir}_removed`), { recursive: true });
        expect(await refs()).not.toContain(`${dir}_removed/${name}`);
        // mv: the OS names the directory only, none of its files.
        renameSync(join(root, `${dir}_moved`), join(root, `${dir}_elsewhere`));
        const afterMove = await refs();
        expect(afterMove).not.toContain(`${dir}_moved/${name}`);
        expect(afterMove).toContain(`${dir}_elsewhere/${name}`);
      });
    }
  });
}
