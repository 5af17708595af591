import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';
import { positionOf } from '../helpers/text.js';

/** explore_symbol, get_editing_context and blast_radius on the call-graph fixtures, per language. */

interface FileImpact {
  file: string;
  test: boolean;
  references: number;
  uses: { symbol: string; user?: string; line: number }[];
}

const LANGUAGES = [
  {
    language: 'python',
    fixture: 'py-graph',
    service: 'graph/service.py',
    store: 'graph/store.py',
    cli: 'graph/cli.py',
    test: 'tests/test_service.py',
    summarize: 'def @@summarize(',
    names: { summarize: 'summarize', describe: 'describe', main: 'main', test: 'test_summarize', loadRows: 'load_rows', normalize: 'normalize' },
    imports: ['from graph.store import load_rows, normalize'],
  },
  {
    language: 'typescript',
    fixture: 'ts-graph',
    service: 'src/service.ts',
    store: 'src/store.ts',
    cli: 'src/cli.ts',
    test: 'tests/service.test.ts',
    summarize: 'function @@summarize(',
    names: { summarize: 'summarize', describe: 'describe', main: 'main', test: 'testSummarize', loadRows: 'loadRows', normalize: 'normalize' },
    imports: ["import { loadRows, normalize } from './store.js';"],
  },
];

describe.each(LANGUAGES)('explore_symbol, get_editing_context and blast_radius with $language', (fx) => {
  let agent: AgentLspClient;
  let root: string;
  const n = fx.names;

  beforeAll(async () => {
    // A copy: the ETag test edits a file.
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-context-'));
    cpSync(join(FIXTURES, fx.fixture), root, { recursive: true });
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root, language_id: fx.language }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('explore_symbol (and its alias explore) answers hover, definition, callers and references in one call', async () => {
    const data = ok(await agent.call('explore', { file_path: fx.service, position_pattern: fx.summarize, reference_limit: 1 }));
    expect(data['symbol']).toMatchObject({ name: n.summarize, file: fx.service, ...positionOf(join(root, fx.service), n.summarize) });
    expect(data['hover']).toContain(n.summarize);
    expect(data['definitions']).toEqual([expect.objectContaining({ file: fx.service, ...positionOf(join(root, fx.service), n.summarize) })]);
    const callers = (data['callers'] as { name: string }[]).map((c) => c.name).sort();
    expect(callers).toEqual([n.describe, n.main, n.test].sort());
    // describe's call, main's import + call, the test's import + call.
    expect(data['references_total']).toBe(5);
    expect(data['references']).toHaveLength(1);
  });

  it('get_editing_context: outline, imports, users from other files and calls, then not_modified until the file changes', async () => {
    const first = await agent.call('get_editing_context', { file_path: fx.service });
    const data = ok(first);
    expect((data['outline'] as { name: string }[]).map((s) => s.name)).toEqual(expect.arrayContaining([n.summarize, n.describe]));
    expect((data['imports'] as { text: string }[]).map((i) => i.text)).toEqual(fx.imports);
    const users = (data['callers'] as { symbol: string; file: string; user?: string; test: boolean }[]).filter((c) => c.user !== undefined);
    expect(users.map((c) => `${c.symbol} ${c.user} ${c.file} ${c.test}`).sort()).toEqual([`${n.summarize} ${n.main} ${fx.cli} false`, `${n.summarize} ${n.test} ${fx.test} true`].sort());
    const calls = (data['calls'] as { from: string; name: string }[]).map((c) => `${c.from}>${c.name}`);
    expect(calls).toEqual(expect.arrayContaining([`${n.summarize}>${n.loadRows}`, `${n.summarize}>${n.normalize}`, `${n.describe}>${n.summarize}`]));
    const etag = data['etag'] as string;

    const again = await agent.call('get_editing_context', { file_path: fx.service, if_none_match: etag });
    expect(ok(again)).toEqual({ ready: true, etag, not_modified: true });
    expect(again.text.length).toBeLessThan(100);
    expect(first.text.length).toBeGreaterThan(again.text.length * 3);

    const path = join(root, fx.service);
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n${fx.language === 'python' ? 'def extra() -> int:\n    return 1\n' : 'export function extra(): number {\n  return 1;\n}\n'}`);
    const changed = ok(await agent.call('get_editing_context', { file_path: fx.service, if_none_match: etag }));
    expect(changed['not_modified']).toBeUndefined();
    expect(changed['etag']).not.toBe(etag);
    expect((changed['outline'] as { name: string }[]).map((s) => s.name)).toContain('extra');
  });

  it('blast_radius splits the uses of a file\'s symbols into test and non-test, grouped by file', async () => {
    const data = ok(await agent.call('blast_radius', { changed_files: [fx.store] }));
    expect(data['test_rule']).toMatch(/test_\*\.py/);
    // store's symbols are used by service only (its import and the calls in summarize).
    const files = data['files'] as FileImpact[];
    expect(files.map((f) => `${f.file} ${f.test}`)).toEqual([`${fx.service} false`]);
    expect(data['test_references']).toBe(0);
    expect(files[0]?.uses.filter((u) => u.user === n.summarize).map((u) => u.symbol).sort()).toEqual([n.loadRows, n.normalize]);

    const service = ok(await agent.call('blast_radius', { changed_files: [fx.service], filter: n.summarize }));
    expect((service['symbols'] as { name: string }[]).map((s) => s.name)).toEqual([n.summarize]);
    const byFile = (service['files'] as FileImpact[]).map((f) => `${f.file} ${f.test} ${f.references}`);
    expect(byFile).toEqual([`${fx.cli} false 2`, `${fx.test} true 2`]);
    expect(service).toMatchObject({ references: 4, test_references: 2, non_test_references: 2 });
  });

  it('blast_radius with include_transitive adds the uses of the users', async () => {
    const data = ok(await agent.call('blast_radius', { changed_files: [fx.store], include_transitive: true, filter: n.loadRows }));
    const level2 = (data['files'] as FileImpact[]).flatMap((f) => f.uses.filter((u) => (u as { level?: number }).level === 2).map((u) => `${f.file} ${u.user ?? '<module>'}`));
    expect(level2).toEqual(expect.arrayContaining([`${fx.cli} ${n.main}`, `${fx.test} ${n.test}`]));
  });

  it('find_callers answers on the disk as it is now: a caller written just before the call is listed', async () => {
    const before = ok(await agent.call('find_callers', { file_path: fx.store, position_pattern: fx.language === 'python' ? 'def @@normalize(' : 'function @@normalize(' }));
    expect((before['calls'] as { name: string }[]).map((c) => c.name)).toEqual([n.summarize]);
    const cli = join(root, fx.cli);
    writeFileSync(
      cli,
      fx.language === 'python'
        ? `${readFileSync(cli, 'utf8')}\n\ndef tidy() -> list[str]:\n    from graph.store import normalize\n    return normalize([" a "])\n`
        : `import { normalize } from './store.js';\n${readFileSync(cli, 'utf8')}\nexport function tidy(): string[] {\n  return normalize([' a ']);\n}\n`,
    );
    const after = ok(await agent.call('find_callers', { file_path: fx.store, position_pattern: fx.language === 'python' ? 'def @@normalize(' : 'function @@normalize(' }));
    expect((after['calls'] as { name: string; file: string }[]).map((c) => `${c.name} ${c.file}`).sort()).toEqual([`${n.summarize} ${fx.service}`, `tidy ${fx.cli}`].sort());
  });

  it('blast_radius refuses a file that does not exist, naming it', async () => {
    const answer = await agent.call('blast_radius', { changed_files: [fx.store, 'nowhere/gone.py'] });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/nowhere\/gone\.py does not exist/);
  });
});
