// replace_in_files: find and replace across the workspace's files as one checkpointed transaction,
// with the original agent-lsp's protocol (dry run with occurrence ids, then apply all or some; a
// stale id or a wrong expected_count changes nothing), .gitignore honoured in a repository, binary
// files left alone — on a private copy of the example workspace, through the MCP client.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { EXAMPLE_WORKSPACE } from '../helpers/paths.js';

interface Listed {
  id: string;
  file: string;
  line: number;
  column: number;
  new_line: string;
}

describe('replace_in_files', () => {
  let agent: AgentLspClient;
  let root: string;
  const read = (file: string) => readFileSync(join(root, file), 'utf8');

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-replace-')));
    cpSync(EXAMPLE_WORKSPACE, root, { recursive: true });
    writeFileSync(join(root, '.gitignore'), 'generated/\n');
    cpSync(join(root, 'py', 'shop'), join(root, 'generated'), { recursive: true });
    writeFileSync(join(root, 'py', 'shop', 'blob.bin'), Buffer.from([0, 1, 2, ...Buffer.from('compute_total')]));
    execFileSync('git', ['init', '-q'], { cwd: root });
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a dry run lists every occurrence with an id, in files git does not ignore, and writes nothing', async () => {
    const before = read('py/shop/checkout.py');
    const dry = ok(await agent.call('replace_in_files', { needle: 'compute_total', repl: 'total_price', dry_run: true }));
    const listed = dry['occurrences'] as Listed[];
    expect(dry).toMatchObject({ dry_run: true, total: 8, replaced: 8, skipped_files: 1 });
    expect(new Set(listed.map((o) => o.file))).toEqual(new Set(['py/shop/pricing.py', 'py/shop/checkout.py', 'py/shop/reports.py']));
    expect(listed).toContainEqual(expect.objectContaining({ file: 'py/shop/checkout.py', line: 5, column: 13, new_line: '    total = total_price(prices)' }));
    expect(read('py/shop/checkout.py')).toBe(before);
  });

  it('applies only the ids chosen, as one checkpoint that undo_last reverts', async () => {
    const pricing = read('py/shop/pricing.py');
    const dry = ok(await agent.call('replace_in_files', { needle: 'compute_total', repl: 'total_price', dry_run: true, relative_path: 'py/shop' }));
    const chosen = (dry['occurrences'] as Listed[]).filter((o) => o.file === 'py/shop/pricing.py').map((o) => o.id);
    expect(chosen).toHaveLength(1);
    const done = ok(await agent.call('replace_in_files', { needle: 'compute_total', repl: 'total_price', dry_run: false, occurrence_ids: chosen }));
    expect(done).toMatchObject({ applied: true, replaced: 1, total: 8 });
    expect(read('py/shop/pricing.py')).toBe(pricing.replace('def compute_total(', 'def total_price('));
    expect(read('py/shop/checkout.py')).toContain('compute_total(prices)');
    ok(await agent.call('undo_last', {}));
    expect(read('py/shop/pricing.py')).toBe(pricing);
  });

  it('a stale id (the file changed since the dry run), a repeated id or a wrong expected_count changes nothing', async () => {
    const dry = ok(await agent.call('replace_in_files', { needle: 'unit_price', repl: 'price_each', dry_run: true }));
    const ids = (dry['occurrences'] as Listed[]).map((o) => o.id);
    const checkout = read('py/shop/checkout.py');
    writeFileSync(join(root, 'py/shop/checkout.py'), `${checkout}# edited by someone else\n`);
    const stale = await agent.call('replace_in_files', { needle: 'unit_price', repl: 'price_each', dry_run: false, occurrence_ids: ids });
    expect(stale.isError).toBe(true);
    expect(stale.text).toMatch(/unknown or stale .*Nothing was changed: run again with dry_run: true/);
    const twice = await agent.call('replace_in_files', { needle: 'unit_price', repl: 'price_each', dry_run: false, occurrence_ids: [ids[0], ids[0]] });
    expect(twice.text).toMatch(/repeated/);
    const counted = await agent.call('replace_in_files', { needle: 'unit_price', repl: 'price_each', dry_run: false, expected_count: 1 });
    expect(counted.text).toMatch(/expected_count is 1 but needle occurs 3 time\(s\)\. Nothing was changed\./);
    expect(read('py/shop/pricing.py')).toContain('def unit_price(');
    writeFileSync(join(root, 'py/shop/checkout.py'), checkout);
  });

  it('regex mode expands groups in both JavaScript and Go forms; bad input is refused clearly', async () => {
    const dry = ok(await agent.call('replace_in_files', { needle: 'def (\\w+)_price\\(', repl: 'def ${1}_cost(', mode: 'regex', dry_run: true, paths_include_glob: 'py/**' }));
    expect((dry['occurrences'] as Listed[]).map((o) => o.new_line)).toEqual(['def unit_cost(total: float, count: int) -> float:']);
    const js = ok(await agent.call('replace_in_files', { needle: 'def (?<n>\\w+)_price\\(', repl: 'def $<n>_cost(', mode: 'regex', dry_run: true, paths_exclude_glob: 'ts/' }));
    expect((js['occurrences'] as Listed[])[0]?.new_line).toBe('def unit_cost(total: float, count: int) -> float:');
    expect((await agent.call('replace_in_files', { needle: '(', mode: 'regex', dry_run: true })).text).toMatch(/needle is not a valid regular expression/);
    expect((await agent.call('replace_in_files', { needle: 'x', dry_run: true, relative_path: '/etc' })).text).toMatch(/outside the workspace/);
    expect((await agent.call('replace_in_files', { needle: 'x', repl: 'y' })).isError).toBe(true);
  });
});
