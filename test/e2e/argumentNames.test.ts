import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

/**
 * Strict argument names over MCP: zod would drop a misspelt optional argument and the call would
 * answer something else than asked (include_declaraton: every reference, declaration included;
 * dry_rn: a write instead of a dry run). Refused with the closest valid name; nothing done.
 */
describe('a misspelt argument is refused, naming the closest valid one, and changes nothing', () => {
  let agent: AgentLspClient;
  let root: string;
  let before: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-argnames-'));
    cpSync(join(FIXTURES, 'python-basic'), root, { recursive: true });
    before = readFileSync(join(root, 'app', 'geometry.py'), 'utf8');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('find_references include_declaraton: did you mean include_declaration?', async () => {
    const answer = await agent.call('find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(', include_declaraton: false });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('Unknown argument for find_references, so nothing was done');
    expect(answer.text).toContain('include_declaraton is not an argument of find_references: did you mean include_declaration?');
    // Spelt right, the same call answers (fewer references: the declaration left out).
    const right = ok(await agent.call('find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(', include_declaration: false }));
    const all = ok(await agent.call('find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' }));
    expect(right['total']).toBe((all['total'] as number) - 1);
  });

  it('go_to_definition colum: did you mean column?', async () => {
    const answer = await agent.call('go_to_definition', { file_path: 'app/geometry.py', line: 13, colum: 12 });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('colum is not an argument of go_to_definition: did you mean column?');
  });

  it('apply_edit dry_rn: refused, and the file is not written', async () => {
    const answer = await agent.call('apply_edit', { file_path: 'app/geometry.py', old_text: 'def distance(', new_text: 'def far(', dry_rn: true });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('dry_rn is not an argument of apply_edit: did you mean dry_run?');
    expect(readFileSync(join(root, 'app', 'geometry.py'), 'utf8')).toBe(before);
  });

  it('a nested one: simulate_chain edits[0].new_txt', async () => {
    const answer = await agent.call('simulate_chain', { session_id: 'none', edits: [{ file_path: 'app/geometry.py', old_text: 'def distance(', new_txt: 'def far(' }] });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('edits[0].new_txt is not an argument of simulate_chain: did you mean new_text?');
  });

  it("the original agent-lsp's language_id beside a file is accepted, and answers as without it", async () => {
    const withId = ok(await agent.call('find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(', language_id: 'python' }));
    const without = ok(await agent.call('find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' }));
    expect(withId['total']).toBe(without['total']);
  });

  it("go_to_symbol takes the original's workspace_root: an open folder, searched alone; one that is not open is refused", async () => {
    const found = ok(await agent.call('go_to_symbol', { symbol_path: 'distance', workspace_root: root }));
    expect(found['total']).toBe(1);
    const outside = mkdtempSync(join(tmpdir(), 'agent-lsp-argnames-outside-'));
    try {
      const refused = await agent.call('go_to_symbol', { symbol_path: 'distance', workspace_root: outside });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/workspace_root .* is not in the current workspace/);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});
