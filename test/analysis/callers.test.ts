import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';
import { positionOf } from '../helpers/text.js';

/**
 * find_callers against the real servers on fixtures with a known call graph:
 * cli.main → service.summarize → store.load_rows / store.normalize, service.describe → summarize,
 * and tests/test_service → summarize.
 */

interface Call {
  direction: string;
  level: number;
  name: string;
  file: string;
  line: number;
  via?: string;
  call_sites: { file: string; line: number; column: number }[];
}

function calls(data: Record<string, unknown>): Call[] {
  return data['calls'] as Call[];
}

/** "level name file" of each entry, sorted: the exact set a test compares. */
function summary(list: Call[]): string[] {
  return list.map((c) => `${c.direction} ${c.level} ${c.name} ${c.file}`).sort();
}

const LANGUAGES = [
  {
    language: 'python',
    root: join(FIXTURES, 'py-graph'),
    service: 'graph/service.py',
    store: 'graph/store.py',
    cli: 'graph/cli.py',
    test: 'tests/test_service.py',
    tree: 'graph/tree.py',
    keyword: 'def',
    summarize: 'def @@summarize(',
    loadRows: 'def @@load_rows(',
    names: { summarize: 'summarize', loadRows: 'load_rows', normalize: 'normalize', describe: 'describe', main: 'main', test: 'test_summarize', depth: 'depth', deepest: 'deepest', even: 'is_even', odd: 'is_odd' },
    recursiveCall: 'depth(child)',
  },
  {
    language: 'typescript',
    root: join(FIXTURES, 'ts-graph'),
    service: 'src/service.ts',
    store: 'src/store.ts',
    cli: 'src/cli.ts',
    test: 'tests/service.test.ts',
    tree: 'src/tree.ts',
    keyword: 'export function',
    summarize: 'function @@summarize(',
    loadRows: 'function @@loadRows(',
    names: { summarize: 'summarize', loadRows: 'loadRows', normalize: 'normalize', describe: 'describe', main: 'main', test: 'testSummarize', depth: 'depth', deepest: 'deepest', even: 'isEven', odd: 'isOdd' },
    recursiveCall: 'depth(child)',
  },
];

describe.each(LANGUAGES)('find_callers with $language', (fx) => {
  let agent: AgentLspClient;
  const n = fx.names;

  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: fx.root, language_id: fx.language }));
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('lists the exact incoming callers, with their call sites, from the server', async () => {
    const data = ok(await agent.call('find_callers', { file_path: fx.service, position_pattern: fx.summarize }));
    expect(data['derived_from']).toBeUndefined();
    expect(summary(calls(data))).toEqual([`incoming 1 ${n.describe} ${fx.service}`, `incoming 1 ${n.main} ${fx.cli}`, `incoming 1 ${n.test} ${fx.test}`].sort());
    const main = calls(data).find((c) => c.name === n.main);
    const site = positionOf(join(fx.root, fx.cli), 'summarize(');
    expect(main?.call_sites).toEqual([{ file: fx.cli, ...site }]);
  });

  it('lists the exact outgoing calls', async () => {
    const data = ok(await agent.call('find_callers', { file_path: fx.service, position_pattern: fx.summarize, direction: 'outgoing' }));
    expect(summary(calls(data))).toEqual([`outgoing 1 ${n.loadRows} ${fx.store}`, `outgoing 1 ${n.normalize} ${fx.store}`]);
  });

  it('goes two levels deep: the callers of the callers, each with the entry it goes through', async () => {
    const data = ok(await agent.call('find_callers', { file_path: fx.store, position_pattern: fx.loadRows, depth: 2 }));
    expect(summary(calls(data))).toEqual(
      [`incoming 1 ${n.summarize} ${fx.service}`, `incoming 2 ${n.describe} ${fx.service}`, `incoming 2 ${n.main} ${fx.cli}`, `incoming 2 ${n.test} ${fx.test}`].sort(),
    );
    expect(calls(data).filter((c) => c.level === 2).every((c) => c.via === n.summarize)).toBe(true);
  });

  it('lists a recursive function among its own callers and callees, with the recursive call site', async () => {
    const data = ok(await agent.call('find_callers', { file_path: fx.tree, position_pattern: `${fx.keyword} @@${n.depth}(` }));
    expect(summary(calls(data))).toEqual([`incoming 1 ${n.deepest} ${fx.tree}`, `incoming 1 ${n.depth} ${fx.tree}`]);
    const self = calls(data).find((c) => c.name === n.depth);
    expect(self?.call_sites).toEqual([{ file: fx.tree, ...positionOf(join(fx.root, fx.tree), fx.recursiveCall) }]);
    const out = ok(await agent.call('find_callers', { file_path: fx.tree, position_pattern: `${fx.keyword} @@${n.depth}(`, direction: 'outgoing' }));
    expect(summary(calls(out))).toContain(`outgoing 1 ${n.depth} ${fx.tree}`);
  });

  it('follows a cycle of two functions to the start and stops there, at any depth', async () => {
    const data = ok(await agent.call('find_callers', { file_path: fx.tree, position_pattern: `${fx.keyword} @@${n.even}(`, depth: 4 }));
    expect(calls(data).map((c) => `${c.level} ${c.name}${c.via ? ` via ${c.via}` : ''}`)).toEqual([`1 ${n.odd}`, `2 ${n.even} via ${n.odd}`]);
  });

  it('answers through the alias `callers`, not listed in tools/list', async () => {
    const viaAlias = ok(await agent.call('callers', { file_path: fx.service, position_pattern: fx.summarize, direction: 'both' }));
    expect(summary(calls(viaAlias))).toContain(`outgoing 1 ${n.loadRows} ${fx.store}`);
    expect(summary(calls(viaAlias))).toContain(`incoming 1 ${n.main} ${fx.cli}`);
    const listed = (await agent.client.listTools()).tools.map((t) => t.name);
    expect(listed).toContain('find_callers');
    expect(listed).not.toContain('callers');
  });

  it('refuses a position on whitespace with a message that says what to do', async () => {
    const blank = positionOf(join(fx.root, fx.service), fx.language === 'python' ? '    total = 0' : '  const rows');
    const answer = await agent.call('find_callers', { file_path: fx.service, line: blank.line, column: 1 });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/No function, method or class at .*whitespace/);
  });

  it('refuses a position on a keyword', async () => {
    const answer = await agent.call('find_callers', { file_path: fx.service, position_pattern: fx.language === 'python' ? '@@return total' : '@@return rows.length' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/No function, method or class at .*keyword/);
    const explored = await agent.call('explore_symbol', { file_path: fx.service, position_pattern: fx.language === 'python' ? '@@return total' : '@@return rows.length' });
    expect(explored.isError).toBe(true);
  });
});
