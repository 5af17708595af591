import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/paths.js';
import { startInProcessAgent, type InProcessAgent } from './inProcessAgent.js';
import { scratchWorkspace } from './workspaceCopy.js';

/** A root inferred from an absolute path is enough to read, never to write. */
describe('writes before any start_lsp or client roots', () => {
  const ws = scratchWorkspace(join(FIXTURES, 'python-basic'));
  const routes = join(ws.root, 'app', 'routes.py');
  let agent: InProcessAgent;
  let before: string;

  beforeAll(async () => {
    before = readFileSync(routes, 'utf8');
    agent = await startInProcessAgent({ home: ws.home });
  });
  afterAll(async () => {
    await agent.close();
    ws.dispose();
  });

  it('apply_edit on an absolute path is refused with what to do, and the file is unchanged', async () => {
    const answer = await agent.call('apply_edit', { file_path: routes, old_text: 'total = 0.0', new_text: 'total = 9.9' });
    expect(answer.isError, answer.text).toBe(true);
    expect(answer.text).toMatch(/was only inferred from a file path\. Call start_lsp with root_dir/);
    expect(readFileSync(routes, 'utf8')).toBe(before);
  });

  it('reads on the inferred root still work', async () => {
    const symbols = await agent.call('list_symbols', { file_path: routes });
    expect(symbols.isError, symbols.text).toBe(false);
    expect(symbols.text).toContain('route_length');
  });

  it('after start_lsp the same edit is written', async () => {
    expect((await agent.call('start_lsp', { root_dir: ws.root, language_id: 'python' })).isError).toBe(false);
    const answer = await agent.call('apply_edit', { file_path: routes, old_text: 'total = 0.0', new_text: 'total = 9.9' });
    expect(answer.isError, answer.text).toBe(false);
    expect(readFileSync(routes, 'utf8')).toBe(before.replace('total = 0.0', 'total = 9.9'));
  });
});
