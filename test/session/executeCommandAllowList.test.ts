import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/paths.js';
import { startInProcessAgent, type InProcessAgent } from './inProcessAgent.js';
import { scratchWorkspace, treeOf } from './workspaceCopy.js';

/**
 * execute_command passes through only commands that change files via workspace/applyEdit (inside
 * the call's transaction), and of tsserver's raw requests only read-only queries.
 */
describe('execute_command allow-list (typescript-language-server)', () => {
  const ws = scratchWorkspace(join(FIXTURES, 'ts-basic'));
  const emitted = join(ws.dir, 'emitted');
  const shapes = join(ws.root, 'src', 'shapes.ts');
  let agent: InProcessAgent;

  beforeAll(async () => {
    // A project that emits outside the workspace, as the red team's did.
    const config = JSON.parse(readFileSync(join(ws.root, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown>; compileOnSave?: boolean };
    delete config.compilerOptions['noEmit'];
    config.compilerOptions['outDir'] = '../emitted';
    config.compileOnSave = true;
    writeFileSync(join(ws.root, 'tsconfig.json'), JSON.stringify(config));
    agent = await startInProcessAgent({ home: ws.home });
    const started = await agent.call('start_lsp', { root_dir: ws.root, language_id: 'typescript' });
    expect(started.isError, started.text).toBe(false);
  });
  afterAll(async () => {
    await agent.close();
    ws.dispose();
  });

  it('refuses tsserver compileOnSaveEmitFile, naming it and why, and nothing is written', async () => {
    const before = treeOf(ws.root);
    const answer = await agent.call('execute_command', {
      command: 'typescript.tsserverRequest',
      arguments: ['compileOnSaveEmitFile', { file: shapes, forced: true }],
      file_path: 'src/shapes.ts',
    });
    expect(answer.isError, answer.text).toBe(true);
    expect(answer.text).toMatch(/does not run typescript\.tsserverRequest .*tsserver command compileOnSaveEmitFile is not one of the read-only queries/);
    expect(existsSync(emitted)).toBe(false);
    expect(treeOf(ws.root)).toEqual(before);
    expect((await agent.call('list_checkpoints', {})).data).toMatchObject({ total: 0 });
  });

  it('refuses a command that installs packages behind the transaction', async () => {
    const install = await agent.call('execute_command', { command: '_typescript.applyCodeActionCommand', arguments: [{ action: { commands: [] } }], file_path: 'src/shapes.ts' });
    expect(install.isError, install.text).toBe(true);
    expect(install.text).toMatch(/does not run _typescript\.applyCodeActionCommand .*installs packages outside any transaction/);
  });

  it('still passes a read-only tsserver query through', async () => {
    const answer = await agent.call('execute_command', {
      command: 'typescript.tsserverRequest',
      arguments: ['semanticDiagnosticsSync', { file: shapes }],
      file_path: 'src/shapes.ts',
    });
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.data['result']).toMatchObject({ success: true, body: [] });
  });
});
