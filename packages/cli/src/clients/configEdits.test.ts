import { describe, expect, it } from 'vitest';
import { hasJsonEntry, setJsonEntry } from './jsonConfigEdit.js';
import { hasTomlTable, setTomlTable, tomlTableText } from './tomlTable.js';

const ENTRY = { command: '/usr/bin/node', args: ['/opt/agent-lsp/bin/agent-lsp'] };
const TABLE = 'mcp_servers.agent-lsp';

describe('the JSON config edit', () => {
  it('adds our entry keeping comments, other servers and the indentation, and removes it again', () => {
    const text = '{\n    // mine\n    "theme": "dark",\n    "mcpServers": {\n        "other": { "command": "x" }\n    }\n}\n';
    const added = setJsonEntry(text, 'mcpServers', 'agent-lsp', ENTRY);
    if (!('text' in added)) throw new Error('expected a change');
    expect(added.text).toContain('// mine');
    expect(added.text).toContain('"other": { "command": "x" }');
    expect(added.text).toContain('        "agent-lsp": {');
    expect(hasJsonEntry(added.text, 'mcpServers', 'agent-lsp')).toBe(true);
    expect(setJsonEntry(added.text, 'mcpServers', 'agent-lsp', ENTRY)).toEqual({ changed: false });
    const removed = setJsonEntry(added.text, 'mcpServers', 'agent-lsp', undefined);
    if (!('text' in removed)) throw new Error('expected a change');
    expect(JSON.parse(removed.text.replace('// mine', ''))).toEqual({ theme: 'dark', mcpServers: { other: { command: 'x' } } });
  });

  it('creates the file\'s object when it is empty, and refuses one that is not JSON or whose servers are not an object', () => {
    const created = setJsonEntry('', 'servers', 'agent-lsp', ENTRY);
    expect('text' in created && JSON.parse(created.text)).toEqual({ servers: { 'agent-lsp': ENTRY } });
    expect(setJsonEntry('{ "mcpServers": { ', 'mcpServers', 'agent-lsp', ENTRY)).toEqual({ error: expect.stringMatching(/not valid JSON.*line 1/) });
    expect(setJsonEntry('[1]', 'mcpServers', 'agent-lsp', ENTRY)).toEqual({ error: 'it is not a JSON object' });
    expect(setJsonEntry('{"mcpServers": []}', 'mcpServers', 'agent-lsp', ENTRY)).toEqual({ error: 'its "mcpServers" is not an object' });
  });
});

describe('the TOML table edit', () => {
  const user = '# Codex\nmodel = "o3"\nnotes = """\n[not a table]\n"""\n\n[mcp_servers.other]\ncommand = "x"\nargs = [\n  "[y]",\n]\n\n[profiles.fast]\nmodel = "o4-mini"\n';

  it('appends our table, keeps every other byte, replaces it in place when it changes, and removes it', () => {
    const added = setTomlTable(user, TABLE, ENTRY);
    if (!('text' in added)) throw new Error('expected a change');
    expect(added.text).toBe(`${user}\n${tomlTableText(TABLE, ENTRY)}`);
    expect(hasTomlTable(added.text, TABLE)).toBe(true);
    expect(setTomlTable(added.text, TABLE, ENTRY)).toEqual({ changed: false });
    const moved = setTomlTable(added.text, TABLE, { ...ENTRY, command: '/usr/local/bin/node' });
    expect('text' in moved && moved.text).toBe(`${user}\n${tomlTableText(TABLE, { ...ENTRY, command: '/usr/local/bin/node' })}`);
    const removed = setTomlTable(added.text, TABLE, undefined);
    expect('text' in removed && removed.text).toBe(user);
  });

  it('replaces a table in the middle of the file, quoted name or not, leaving the tables around it', () => {
    const text = 'a = 1\n\n[mcp_servers."agent-lsp"]\ncommand = "old"\n\n[z]\nb = 2\n';
    const edit = setTomlTable(text, TABLE, ENTRY);
    expect('text' in edit && edit.text).toBe(`a = 1\n\n${tomlTableText(TABLE, ENTRY)}\n[z]\nb = 2\n`);
  });

  it('refuses a file that is not TOML, or defines our table twice', () => {
    expect(setTomlTable('model = "o3"\nthis is not toml\n', TABLE, ENTRY)).toEqual({ error: expect.stringContaining('line 2') });
    expect(setTomlTable('x = [\n 1,\n', TABLE, ENTRY)).toEqual({ error: expect.stringContaining('never closes') });
    expect(setTomlTable('[mcp_servers.agent-lsp]\n[mcp_servers.agent-lsp]\n', TABLE, ENTRY)).toEqual({ error: expect.stringContaining('twice') });
  });
});
