import { mkdtempSync, cpSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

/** A private copy of the Python fixture, with a symlink that points out of it. */
function workspaceWithEscape(): string {
  const root = mkdtempSync(join(tmpdir(), 'agent-lsp-bad-'));
  cpSync(join(FIXTURES, 'python-basic'), root, { recursive: true });
  const outside = mkdtempSync(join(tmpdir(), 'agent-lsp-outside-'));
  writeFileSync(join(outside, 'secret.py'), 'password = "hunter2"\n');
  symlinkSync(join(outside, 'secret.py'), join(root, 'app', 'link.py'));
  writeFileSync(join(root, 'notes.xyz'), 'not code\n');
  return root;
}

describe('bad input gets a clear, actionable error and changes nothing', () => {
  let agent: AgentLspClient;
  let root: string;
  let before: string;

  beforeAll(async () => {
    root = workspaceWithEscape();
    before = readFileSync(join(root, 'app', 'geometry.py'), 'utf8');
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent.close();
    // The symlink target lives in a second temp dir.
    const target = readFileSync(join(root, 'app', 'link.py'), 'utf8');
    expect(target).toContain('hunter2');
    rmSync(root, { recursive: true, force: true });
  });

  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ['a file outside every root', 'find_references', { file_path: '/etc/hostname', line: 1, column: 1 }, /outside the workspace.*start_lsp/],
    ['a symlink that escapes the root', 'get_diagnostics', { file_path: 'app/link.py' }, /app\/link\.py is outside the workspace \(it resolves to .*secret\.py\)/],
    ['a missing file', 'go_to_definition', { file_path: 'app/nope.py', line: 1, column: 1 }, /app\/nope\.py does not exist/],
    ['a line past the end', 'find_references', { file_path: 'app/geometry.py', line: 999, column: 1 }, /position 999:1 is past the end of the file, which has 16 line\(s\)/],
    ['no position at all', 'go_to_definition', { file_path: 'app/geometry.py' }, /Give a position: line and column \(1-based\), or position_pattern/],
    ['a pattern that matches nothing', 'find_references', { file_path: 'app/geometry.py', position_pattern: 'def nowhere(' }, /does not occur in app\/geometry\.py/],
    ['a pattern that matches several places', 'find_references', { file_path: 'app/geometry.py', position_pattern: '** 2' }, /occurs 2 times in app\/geometry\.py \(at 13:\d+, 13:\d+\)\. Make the snippet longer/],
    ['an unknown language', 'get_diagnostics', { file_path: 'notes.xyz' }, /No language server is configured for \.xyz.*--config/],
    ['an unknown language id', 'start_lsp', { root_dir: FIXTURES, language_id: 'cobol' }, /Unknown language "cobol"\. Known: python/],
    ['a root that does not exist', 'start_lsp', { root_dir: '/no/such/dir' }, /root_dir \/no\/such\/dir does not exist/],
    ['a relative root', 'start_lsp', { root_dir: 'app' }, /root_dir must be an absolute path; got "app"/],
    ['line 0', 'find_references', { file_path: 'app/geometry.py', line: 0, column: 1 }, /line must be a whole number ≥ 1: lines and columns are 1-based/],
    ['column 0', 'inspect_symbol', { file_path: 'app/geometry.py', line: 12, column: 0 }, /column must be a whole number ≥ 1: lines and columns are 1-based/],
    ['a range starting at line 0', 'suggest_fixes', { file_path: 'app/geometry.py', start_line: 0, start_column: 1, end_line: 1, end_column: 1 }, /start_line must be a whole number ≥ 1/],
  ];

  for (const [what, tool, args, message] of cases) {
    it(`${what} (${tool})`, async () => {
      const answer = await agent.call(tool, args);
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(message);
    });
  }

  it('a column past the end of its line clamps to the line\'s end, as LSP does', async () => {
    // Line 3 is `from dataclasses import dataclass`: its end (column 34) touches `dataclass`.
    const clamped = ok(await agent.call('go_to_definition', { file_path: 'app/geometry.py', line: 3, column: 400 }));
    const atEnd = ok(await agent.call('go_to_definition', { file_path: 'app/geometry.py', line: 3, column: 34 }));
    expect(clamped).toEqual(atEnd);
    expect(clamped['total']).toBeGreaterThan(0);
  });

  it('rejects arguments of the wrong type and unknown tools', async () => {
    const typed = await agent.call('find_references', { file_path: 'app/geometry.py', line: 'twelve', column: 1 }).catch((e: unknown) => e);
    if (typed instanceof McpError) expect(typed.message).toMatch(/line/);
    else expect((typed as { isError: boolean; text: string }).text).toMatch(/line/);
    const unknown = await agent.call('no_such_tool', {}).catch((e: unknown) => e);
    if (unknown instanceof McpError) expect(unknown.message).toMatch(/no_such_tool/);
    else expect((unknown as { isError: boolean; text: string }).text).toMatch(/no_such_tool/);
  });

  it('changed nothing: same workspace, same file, and the server still answers', async () => {
    expect(ok(await agent.call('list_workspace_folders', {}))['folders']).toHaveLength(1);
    expect(readFileSync(join(root, 'app', 'geometry.py'), 'utf8')).toBe(before);
    expect(ok(await agent.call('find_references', { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' }))['total']).toBe(6);
  });
});

describe('bad environment', () => {
  it('a relative path with no workspace says to call start_lsp', async () => {
    const agent = await startAgentLsp();
    try {
      const answer = await agent.call('find_references', { file_path: 'app/geometry.py', line: 1, column: 1 });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/No workspace is set\. Call start_lsp with root_dir/);
    } finally {
      await agent.close();
    }
  });

  it('an absolute path with no workspace infers the project root and names it', async () => {
    // A copy outside this repository: inside it, the repository's own root would be the project.
    const copy = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-infer-')));
    cpSync(join(FIXTURES, 'python-basic'), copy, { recursive: true });
    const agent = await startAgentLsp();
    try {
      const data = ok(await agent.call('find_references', { file_path: join(copy, 'app', 'geometry.py'), position_pattern: 'def @@distance(' }));
      expect(data).toMatchObject({ total: 6, workspace_root: copy, root_inferred: true });
      expect(ok(await agent.call('list_workspace_folders', {}))['folders']).toEqual([copy]);
    } finally {
      await agent.close();
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('no workspace: errors name only arguments the tool has', async () => {
    const agent = await startAgentLsp();
    try {
      const symbol = await agent.call('find_symbol', { query: 'distance' });
      expect(symbol.isError).toBe(true);
      expect(symbol.text).toMatch(/No workspace is set\. Call start_lsp with root_dir/);
      expect(symbol.text).not.toMatch(/file_path/);
      const session = await agent.call('create_simulation_session', { language: 'python' });
      expect(session.isError).toBe(true);
      expect(session.text).toMatch(/Call start_lsp with root_dir first, or pass workspace_root\./);
      expect(session.text).not.toMatch(/file_path/);
    } finally {
      await agent.close();
    }
  });

  it('a server binary that is not installed says how to install it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-config-'));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'lua', extensions: ['.lua'], command: ['definitely-not-an-lsp-binary'] }] }));
    writeFileSync(join(dir, 'main.lua'), 'print("hi")\n');
    const agent = await startAgentLsp({ args: ['--config', config] });
    try {
      ok(await agent.call('start_lsp', { root_dir: dir }));
      const answer = await agent.call('get_diagnostics', { file_path: 'main.lua' });
      expect(answer.isError).toBe(true);
      expect(answer.text).toMatch(/definitely-not-an-lsp-binary was not found\. Install definitely-not-an-lsp-binary and make sure it is on PATH.*agent-lsp doctor/);
    } finally {
      await agent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a server that crashes: the call says so and the next call restarts it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-crash-'));
    const config = join(dir, 'servers.json');
    const server = join(FIXTURES, 'fault-server', 'server.mjs');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'fault', extensions: ['.fault'], command: [process.execPath, server] }] }));
    writeFileSync(join(dir, 'boom.fault'), 'CRASH\n');
    writeFileSync(join(dir, 'calm.fault'), 'calm\n');
    const agent = await startAgentLsp({ args: ['--config', config] });
    try {
      ok(await agent.call('start_lsp', { root_dir: dir }));
      const crashed = await agent.call('inspect_symbol', { file_path: 'boom.fault', line: 1, column: 1 });
      expect(crashed.isError).toBe(true);
      expect(crashed.text).toMatch(/stopped unexpectedly \(exit code 3\)\. It will be restarted on the next call/);
      const after = ok(await agent.call('inspect_symbol', { file_path: 'calm.fault', line: 1, column: 1 }));
      expect(after['contents']).toBe('fault-server hover');
    } finally {
      await agent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
