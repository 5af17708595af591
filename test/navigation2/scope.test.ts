// start_lsp scope: servers that can narrow their indexing do (pyright: python.analysis.include,
// gopls: directoryFilters), the others are named as not honouring it; a scoped broker is not the
// unscoped one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BrokerTestScope, daemonDirs, readDaemonJson } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { copyFixture } from './workspaceCopy.js';

const OTHER_USE = 'from app.geometry import distance, Point\n\nprint(distance(Point(0, 0), Point(1, 1)))\n';
const DISTANCE = { file_path: 'app/geometry.py', position_pattern: 'def @@distance' };

function files(data: Record<string, unknown>): string[] {
  return [...new Set((data['locations'] as { file: string }[]).map((l) => l.file))].sort();
}

describe('start_lsp scope (direct mode)', () => {
  let agent: AgentLspClient;
  let ws: { root: string; remove(): void };

  beforeAll(async () => {
    ws = copyFixture('python-basic');
    mkdirSync(join(ws.root, 'other'));
    writeFileSync(join(ws.root, 'other', 'use.py'), OTHER_USE);
    agent = await startAgentLsp();
  });
  afterAll(async () => {
    await agent.close();
    ws.remove();
  });

  it('refuses a scope entry that is not a directory inside the root, changing nothing', async () => {
    for (const scope of [['missing'], ['../'], ['/etc'], ['app/geometry.py']]) {
      const answer = await agent.call('start_lsp', { root_dir: ws.root, scope });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/scope entr/);
    }
  });

  it('pyright indexes only the scope: references outside it are not found; without scope they are', async () => {
    const scoped = ok(await agent.call('start_lsp', { root_dir: ws.root, scope: ['app/'] }));
    expect(scoped['scope']).toEqual({ directories: ['app'], servers: [{ server: 'pyright', honoured: true, note: 'analyses only these directories (python.analysis.include)' }] });
    expect(files(ok(await agent.call('find_references', DISTANCE)))).toEqual(['app/broken.py', 'app/geometry.py', 'app/routes.py']);

    const whole = ok(await agent.call('start_lsp', { root_dir: ws.root }));
    expect(whole['scope']).toBeUndefined();
    expect(files(ok(await agent.call('find_references', DISTANCE)))).toEqual(['app/broken.py', 'app/geometry.py', 'app/routes.py', 'other/use.py']);
  });

  it('says plainly which servers cannot honour a scope', async () => {
    const both = copyFixture('ts-basic');
    try {
      const answer = await agent.call('start_lsp', { root_dir: both.root, scope: ['src'] });
      // Every installed server with files here answers (the JSON server too, for package.json and tsconfig.json).
      const scope = ok(answer)['scope'] as { directories: string[]; servers: { server: string; honoured: boolean; note: string }[] };
      expect(scope.directories).toEqual(['src']);
      expect(scope.servers).toContainEqual({ server: 'typescript-language-server', honoured: false, note: "cannot honour it: tsserver's projects come from tsconfig.json (narrow its include instead)" });
      expect(scope.servers.filter((s) => s.honoured)).toEqual([]);
      expect(scope.servers.every((s) => s.note.startsWith('cannot honour it: '))).toBe(true);
      expect(answer.text).toContain('typescript-language-server (NOT honoured)');
    } finally {
      ok(await agent.call('start_lsp', { root_dir: ws.root }));
      both.remove();
    }
  });
});

describe.skipIf(!onPath('gopls'))(`start_lsp scope on gopls${onPath('gopls') ? '' : ' (NOT INSTALLED — did not run)'}`, () => {
  it('loads only the scope', async () => {
    const ws = copyFixture('go-basic');
    const agent = await startAgentLsp();
    try {
      const where = { file_path: 'geometry/geometry.go', position_pattern: 'func @@Distance' };
      ok(await agent.call('start_lsp', { root_dir: ws.root, scope: ['geometry'] }));
      expect(files(ok(await agent.call('find_references', where)))).toEqual(['geometry/geometry.go']);
      ok(await agent.call('start_lsp', { root_dir: ws.root }));
      expect(files(ok(await agent.call('find_references', where)))).toEqual(['geometry/geometry.go', 'main.go', 'report.go']);
    } finally {
      await agent.close();
      ws.remove();
    }
  });
});

describe('start_lsp scope through a broker', () => {
  const scope = new BrokerTestScope();
  afterEach(() => scope.cleanup());

  it('a scoped pyright broker is its own (another key), and honours the scope', async () => {
    const home = scope.home();
    const root = scope.root('python-basic');
    mkdirSync(join(root, 'python-basic', 'other'));
    writeFileSync(join(root, 'python-basic', 'other', 'use.py'), OTHER_USE);
    const front = await scope.front(home);
    const where = { file_path: 'python-basic/app/geometry.py', position_pattern: 'def @@distance' };
    ok(await front.call('start_lsp', { root_dir: root, scope: ['python-basic/app'] }));
    expect(files(ok(await front.call('find_references', where)))).toEqual(['python-basic/app/broken.py', 'python-basic/app/geometry.py', 'python-basic/app/routes.py']);
    const pythonKeys = () => daemonDirs(home).flatMap((dir) => readDaemonJson(dir) ?? []).filter((d) => d.language === 'python').map((d) => d.key);
    const [scopedKey] = pythonKeys();
    ok(await front.call('start_lsp', { root_dir: root }));
    expect(files(ok(await front.call('find_references', where)))).toContain('python-basic/other/use.py');
    const keys = pythonKeys();
    expect(scopedKey).toBeDefined();
    expect(keys.length).toBe(2);
    expect(keys).toContain(scopedKey);
  });
});
