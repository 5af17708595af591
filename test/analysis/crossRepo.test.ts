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
    const folders = ok(await agent.call('list_workspace_folders', {}));
    expect(JSON.stringify(folders)).not.toContain(consumer);
  });

  it('refuses a consumer root that does not exist', async () => {
    const answer = await agent.call('get_cross_repo_references', { file_path: 'src/service.ts', position_pattern: 'function @@summarize(', consumer_roots: [join(dir, 'missing')] });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/consumer root .*missing does not exist/);
  });
});
