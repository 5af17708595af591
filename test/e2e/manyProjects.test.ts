// find_symbol and go_to_symbol in a workspace of more TypeScript projects than agent-lsp keeps
// loaded at once (MAX_SEEDED_PROJECTS): every project is searched, the last one too, and the
// answer is complete.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

const PROJECTS = 70;
const name = (i: number) => `p${String(i).padStart(2, '0')}`;

describe(`a workspace of ${PROJECTS} tsconfig projects`, () => {
  let root: string;
  let agent: AgentLspClient;

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-many-projects-')));
    for (let i = 0; i < PROJECTS; i++) {
      const dir = join(root, 'packages', name(i));
      mkdirSync(join(dir, 'src'), { recursive: true });
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ['src'] }));
      const last = i === PROJECTS - 1 ? 'export function onlyInTheLastProject(): number {\n  return 1;\n}\n' : '';
      writeFileSync(join(dir, 'src', 'index.ts'), `export function widget${name(i)}(): number {\n  return ${i};\n}\n${last}`);
    }
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('find_symbol finds a symbol of the last project, complete', async () => {
    const data = ok(await agent.call('find_symbol', { query: 'onlyInTheLastProject' }));
    expect(data['complete']).toBe(true);
    expect((data['symbols'] as { name: string; file: string }[]).map((s) => `${s.file}:${s.name}`)).toEqual([`packages/${name(PROJECTS - 1)}/src/index.ts:onlyInTheLastProject`]);
  });

  it('find_symbol counts a name declared in every project once per project', async () => {
    const data = ok(await agent.call('find_symbol', { query: 'widget', limit: 200 }));
    expect(data['complete']).toBe(true);
    const files = (data['symbols'] as { file: string }[]).map((s) => s.file);
    const missing = Array.from({ length: PROJECTS }, (_, i) => `packages/${name(i)}/src/index.ts`).filter((f) => !files.includes(f));
    expect(missing).toEqual([]);
    expect(new Set(files).size).toBe(PROJECTS);
    expect(data['total']).toBe(PROJECTS);
  });

  it('go_to_symbol resolves a path into the last project', async () => {
    const data = ok(await agent.call('go_to_symbol', { symbol_path: 'onlyInTheLastProject' }));
    expect(data['definitions']).toEqual([expect.objectContaining({ file: `packages/${name(PROJECTS - 1)}/src/index.ts`, line: 4 })]);
  });
});
