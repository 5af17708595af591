import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

/**
 * get_cross_repo_references with typescript-language-server: a library checkout (the ts-graph
 * fixture) and a consumer checkout beside it that imports the library's summarize.
 */

interface Repo {
  root: string;
  references: number;
  locations: { file: string; line: number; column: number }[];
}

describe('get_cross_repo_references with typescript', () => {
  let agent: AgentLspClient;
  let dir: string;
  let lib: string;
  let consumer: string;

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-cross-')));
    lib = join(dir, 'lib');
    consumer = join(dir, 'consumer');
    cpSync(join(FIXTURES, 'ts-graph'), lib, { recursive: true });
    mkdirSync(join(consumer, 'src'), { recursive: true });
    writeFileSync(join(consumer, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, types: [] }, include: ['src'] }),
    );
    writeFileSync(join(consumer, 'src', 'app.ts'), "import { summarize } from '../../lib/src/service.js';\n\nexport const count = summarize('a,b,c');\n");
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: lib, language_id: 'typescript' }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('partitions the references by repository and leaves the workspace folders as they were', async () => {
    const data = ok(await agent.call('get_cross_repo_references', { file_path: 'src/service.ts', position_pattern: 'function @@summarize(', consumer_roots: [consumer] }));
    const repos = data['repositories'] as Repo[];
    expect(repos.map((r) => `${r.root} ${r.references}`)).toEqual([`${lib} 5`, `${consumer} 2`]);
    expect(repos[1]?.locations.map((l) => `${l.file}:${l.line}:${l.column}`)).toEqual(['src/app.ts:1:10', 'src/app.ts:3:22']);
    expect(data['complete']).toBe(true);
    const folders = ok(await agent.call('list_workspace_folders', {}));
    expect(JSON.stringify(folders)).not.toContain(consumer);
  });

  it('says it is partial, and where, when a consumer root has more files of the language than it reads', async () => {
    const big = join(dir, 'big');
    mkdirSync(big);
    for (let i = 0; i <= 5000; i++) writeFileSync(join(big, `m${i}.ts`), `export const v${i} = ${i};\n`);
    const answer = await agent.call('get_cross_repo_references', { file_path: 'src/service.ts', position_pattern: 'function @@summarize(', consumer_roots: [consumer, big] });
    const data = ok(answer);
    expect(data['complete']).toBe(false);
    expect(data['unread_roots']).toEqual([big]);
    expect(answer.text).toMatch(/partial: more than 5000 files in .*big/);
  });

  it('refuses a consumer root that does not exist', async () => {
    const answer = await agent.call('get_cross_repo_references', { file_path: 'src/service.ts', position_pattern: 'function @@summarize(', consumer_roots: [join(dir, 'missing')] });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/consumer root .*missing does not exist/);
  });
});

/**
 * pyright answers references within one workspace folder: the consumer's uses are found by
 * resolving each mention of the name there (its pyrightconfig makes the library importable).
 */
describe('get_cross_repo_references with python', () => {
  let agent: AgentLspClient;
  let dir: string;
  let lib: string;
  let consumer: string;

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-cross-py-')));
    lib = join(dir, 'lib');
    consumer = join(dir, 'consumer');
    cpSync(join(FIXTURES, 'py-graph'), lib, { recursive: true });
    mkdirSync(join(consumer, 'app'), { recursive: true });
    writeFileSync(join(consumer, 'pyrightconfig.json'), JSON.stringify({ extraPaths: ['../lib'] }));
    writeFileSync(join(consumer, 'app', '__init__.py'), '');
    // "summarize" also appears in a string and in an unrelated local: neither is a use.
    writeFileSync(join(consumer, 'app', 'use.py'), 'from graph.service import summarize\n\n\ndef run() -> int:\n    return summarize("summarize")\n\n\ndef other() -> int:\n    summarize_count = 1\n    return summarize_count\n');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: lib, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the consumer\'s import and call by resolving the name, and says how', async () => {
    const data = ok(await agent.call('get_cross_repo_references', { file_path: 'graph/service.py', position_pattern: 'def @@summarize(', consumer_roots: [consumer] }));
    const repos = data['repositories'] as (Repo & { found_by_definition?: number })[];
    expect(repos.map((r) => `${r.root} ${r.references}`)).toEqual([`${lib} 5`, `${consumer} 2`]);
    expect(repos[1]?.found_by_definition).toBe(2);
    expect(repos[1]?.locations.map((l) => `${l.file}:${l.line}:${l.column}`)).toEqual(['app/use.py:1:27', 'app/use.py:5:12']);
  });
});
