import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

/** A NUL byte in a path or URI is the caller's mistake: a clear refusal that changes nothing, never "a bug in agent-lsp". */
describe('a NUL byte in a file path or URI', () => {
  let agent: AgentLspClient;
  let root: string;
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-nul-')));
    writeFileSync(join(root, 'a.txt'), 'hello\n');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const start = { line: 0, character: 0 };
  it.each([
    ['apply_edit', () => ({ file_path: 'a\0.txt', old_text: 'hello', new_text: 'bye' })],
    ['apply_edit', () => ({ workspace_edit: { changes: { [`file://${root}/a%00.txt`]: [{ range: { start, end: start }, newText: 'x' }] } } })],
    ['get_diagnostics', () => ({ file_path: `file://${root}/a%00.txt` })],
  ])('%s is refused as invalid input', async (tool, args) => {
    const answer = await agent.call(tool, args());
    expect(answer.isError).toBe(true);
    expect(answer.text).not.toContain('bug in agent-lsp');
  });

  it('says what is wrong with the path', async () => {
    const answer = await agent.call('apply_edit', { file_path: join(root, 'a\0.txt'), old_text: 'hello', new_text: 'bye' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/contains a NUL byte/);
  });
});
