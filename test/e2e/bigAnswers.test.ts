// Big answers are paged honestly: on a generated TypeScript workspace where one module has many
// callers and many changed functions, find_callers, blast_radius and detect_changes give every
// item exactly once across pages (total, complete, next offset), and get_editing_context says
// when its lists were cut.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

const CALLERS = 130;
const TEST_CALLERS = 10;
const HUB_FUNCTIONS = 23;
const pad = (i: number) => String(i).padStart(3, '0');

function gitIn(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, timeout: 30_000 });
}

interface Paged {
  total: number;
  complete: boolean;
  offset: number;
  returned: number;
  text: string;
  items: unknown[];
}

/** Every page of a paged call, `limit` at a time, following the offsets the answers give. */
async function allPages(agent: AgentLspClient, tool: string, args: Record<string, unknown>, list: string, limit: number): Promise<Paged[]> {
  const pages: Paged[] = [];
  for (let offset = 0; ; ) {
    const answer = await agent.call(tool, { ...args, limit, offset });
    const data = ok(answer);
    const p = { total: data['total'] as number, complete: data['complete'] as boolean, offset: data['offset'] as number, returned: data['returned'] as number, text: answer.text, items: data[list] as unknown[] };
    pages.push(p);
    expect(p.items).toHaveLength(p.returned);
    if (p.complete) break;
    const next = offset + p.returned;
    // The text tells the agent where the next page starts.
    expect(p.text).toContain(`offset=${next}`);
    offset = next;
    if (pages.length > 100) throw new Error(`${tool} never said complete`);
  }
  return pages;
}

function expectPagedOnce(pages: Paged[], key: (item: unknown) => string, expectedTotal: number, limit: number): string[] {
  const keys = pages.flatMap((p) => p.items.map(key));
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys).toHaveLength(expectedTotal);
  for (const p of pages) expect(p.total).toBe(expectedTotal);
  expect(pages).toHaveLength(Math.ceil(expectedTotal / limit));
  for (const p of pages.slice(0, -1)) expect(p.complete).toBe(false);
  expect(pages.at(-1)?.complete).toBe(true);
  return keys;
}

describe('big answers on a workspace with many callers', () => {
  let root: string;
  let agent: AgentLspClient;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-big-answers-')));
    mkdirSync(join(root, 'src', 'callers'), { recursive: true });
    writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['src'] }));
    const hub = Array.from({ length: HUB_FUNCTIONS }, (_, i) => `export function part${pad(i)}(n: number): number {\n  return n + ${i};\n}\n`);
    writeFileSync(join(root, 'src', 'hub.ts'), `export function hub(n: number): number {\n  return n * 2;\n}\n\n${hub.join('\n')}`);
    for (let i = 0; i < CALLERS; i++) {
      const test = i < TEST_CALLERS;
      const file = test ? `caller${pad(i)}.test.ts` : `caller${pad(i)}.ts`;
      // Every 7th caller has a character outside the BMP before its call: two UTF-16 units, one character.
      const call = i % 7 === 0 ? `/* \u{1F600} */ hub(${i})` : `hub(${i})`;
      writeFileSync(join(root, 'src', 'callers', file), `import { hub } from '../hub.js';\n\nexport function caller${pad(i)}(): number {\n  return ${call};\n}\n`);
    }
    gitIn(root, 'init', '-q');
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '-m', 'base');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('find_callers pages every caller once', async () => {
    const pages = await allPages(agent, 'find_callers', { file_path: 'src/hub.ts', position_pattern: 'export function @@hub(' }, 'calls', 50);
    const keys = expectPagedOnce(pages, (c) => { const x = c as { name: string; file: string }; return `${x.file}:${x.name}`; }, CALLERS, 50);
    expect(keys).toContain(`src/callers/caller${pad(CALLERS - 1)}.ts:caller${pad(CALLERS - 1)}`);
  });

  it('find_references pages are the full answer cut in order, positions in characters', async () => {
    const args = { file_path: 'src/hub.ts', position_pattern: 'export function @@hub(' };
    const full = ok(await agent.call('find_references', { ...args, limit: 1000 }));
    // The declaration, and an import and a call in every caller.
    expect(full['total']).toBe(1 + 2 * CALLERS);
    expect(full['complete']).toBe(true);
    const pages = await allPages(agent, 'find_references', args, 'locations', 50);
    expect(pages.flatMap((p) => p.items)).toEqual(full['locations']);
    expect(pages.every((p) => p.total === full['total'])).toBe(true);
    for (const p of pages) expect(ok(await agent.call('find_references', { ...args, limit: 50, offset: p.offset }))['files']).toBe(full['files']);
    // caller000: `  return /* 😀 */ hub(0);` — hub starts at character 18 (UTF-16 offset 18, so column 19 if it were not converted).
    expect(full['locations']).toContainEqual({ file: 'src/callers/caller000.test.ts', line: 4, column: 18, end_line: 4, end_column: 21 });
  });

  it('blast_radius pages every using file once, and counts every use', async () => {
    const pages = await allPages(agent, 'blast_radius', { changed_files: ['src/hub.ts'], filter: 'hub' }, 'files', 40);
    const files = expectPagedOnce(pages, (f) => (f as { file: string }).file, CALLERS, 40);
    // Non-test files first, then the tests.
    expect(files.slice(-TEST_CALLERS).every((f) => f.endsWith('.test.ts'))).toBe(true);
    const first = ok(await agent.call('blast_radius', { changed_files: ['src/hub.ts'], filter: 'hub', limit: 40 }));
    expect(first['references']).toBe(2 * CALLERS);
    expect(first['test_references']).toBe(2 * TEST_CALLERS);
  });

  it('detect_changes pages every changed symbol once', async () => {
    const path = join(root, 'src', 'hub.ts');
    const original = readFileSync(path, 'utf8');
    try {
      writeFileSync(path, original.replace(/return n \+ /g, 'return 1 + n + '));
      const pages = await allPages(agent, 'detect_changes', {}, 'symbols', 7);
      const names = expectPagedOnce(pages, (s) => (s as { name: string }).name, HUB_FUNCTIONS, 7);
      expect([...names].sort()).toEqual(Array.from({ length: HUB_FUNCTIONS }, (_, i) => `part${pad(i)}`));
    } finally {
      writeFileSync(path, original);
    }
  });

  it('get_editing_context says its callers list was cut, with the total', async () => {
    const data = ok(await agent.call('get_editing_context', { file_path: 'src/hub.ts' }));
    expect(data['complete']).toBe(false);
    expect(data['callers_total']).toBe(2 * CALLERS);
    expect((data['callers'] as unknown[]).length).toBeLessThan(2 * CALLERS);
    const text = (await agent.call('get_editing_context', { file_path: 'src/hub.ts' })).text;
    expect(text).toMatch(new RegExp(`used from other files \\(${2 * CALLERS}[^)]*shown`));
  });
});
