import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { FIXTURES } from '../helpers/paths.js';
import { startInProcessAgent, type InProcessAgent, type ToolAnswer } from './inProcessAgent.js';
import { scratchWorkspace, treeOf } from './workspaceCopy.js';

/** Filesystem refusals come back as what they are (path, what to do), never as "a bug in agent-lsp". */
describe('filesystem errors as user errors', () => {
  const ws = scratchWorkspace(join(FIXTURES, 'python-basic'));
  let agent: InProcessAgent;
  const create = (path: string, options?: Record<string, boolean>) =>
    agent.call('apply_edit', { workspace_edit: { documentChanges: [{ kind: 'create', uri: pathToUri(join(ws.root, path)), ...(options ? { options } : {}) }] } });
  const expectUserError = (answer: ToolAnswer, message: RegExp) => {
    expect(answer.isError, answer.text).toBe(true);
    expect(answer.text).not.toMatch(/bug in agent-lsp|failed unexpectedly/);
    expect(answer.text).toMatch(message);
  };

  beforeAll(async () => {
    agent = await startInProcessAgent({ home: ws.home });
    const started = await agent.call('start_lsp', { root_dir: ws.root, language_id: 'python' });
    expect(started.isError, started.text).toBe(false);
  });
  afterAll(async () => {
    await agent.close();
    ws.dispose();
  });

  it('ENAMETOOLONG: a file name too long for the filesystem', async () => {
    const before = treeOf(ws.root);
    expectUserError(await create(`app/${'n'.repeat(300)}.py`), /app\/n+\.py: the path, or a name in it, is too long .*\(ENAMETOOLONG\)\. Use a shorter name/);
    expect(treeOf(ws.root)).toEqual(before);
  });

  it('a directory where a file is expected, to write or to read', async () => {
    const before = treeOf(ws.root);
    expectUserError(await agent.call('apply_edit', { file_path: 'app', old_text: 'x', new_text: 'y' }), /app is not a regular file/);
    expectUserError(await agent.call('list_symbols', { file_path: join(ws.root, 'app') }), /app is not a regular file/);
    expect(treeOf(ws.root)).toEqual(before);
  });

  it('EEXIST: a file in the way of a directory, and a create over an existing file without overwrite', async () => {
    const before = treeOf(ws.root);
    expectUserError(await create('app/routes.py/new.py'), /app\/routes\.py already exists and is in the way \(EEXIST\)/);
    expectUserError(await create('app/routes.py'), /Cannot create app\/routes\.py: it already exists \(set options\.overwrite/);
    expect(treeOf(ws.root)).toEqual(before);
  });
});
