import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheInitializeAnswer, cachedInitializeAnswer } from './lspCapabilityCache.js';

describe('the initialize answers agent-lsp lsp keeps for a lazy start', () => {
  let dir: string;
  let savedHome: string | undefined;
  let command: string[];
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-capcache-'));
    savedHome = process.env['AGENT_LSP_HOME'];
    process.env['AGENT_LSP_HOME'] = join(dir, 'home');
    writeFileSync(join(dir, 'server.js'), '// version 1\n');
    command = [process.execPath, join(dir, 'server.js'), '--stdio'];
  });
  afterEach(() => {
    if (savedHome === undefined) delete process.env['AGENT_LSP_HOME'];
    else process.env['AGENT_LSP_HOME'] = savedHome;
    rmSync(dir, { recursive: true, force: true });
  });

  const answer = { capabilities: { hoverProvider: true, experimental: { agentLsp: { key: 'k' }, other: 1 } }, serverInfo: { name: 's', version: '1' } };

  it('gives back what the same server answered, without what named one broker', () => {
    cacheInitializeAnswer('profile', command, answer);
    expect(cachedInitializeAnswer('profile', command)).toEqual({ capabilities: { hoverProvider: true, experimental: { other: 1 } }, serverInfo: { name: 's', version: '1' } });
    expect(cachedInitializeAnswer('another profile', command)).toBeUndefined();
  });

  it('gives nothing once the server was upgraded in place (same path, other file)', () => {
    cacheInitializeAnswer('profile', command, answer);
    writeFileSync(join(dir, 'server.js'), '// version 2, a new capability\n');
    expect(cachedInitializeAnswer('profile', command)).toBeUndefined();
    cacheInitializeAnswer('profile', command, answer);
    expect(cachedInitializeAnswer('profile', command)).toBeDefined();
    // Rewritten with the same size and modification time (npm unpacks every file with one fixed
    // mtime, and a small wrapper script may keep its size across versions).
    const fixed = new Date('1985-10-26T08:15:00Z');
    utimesSync(join(dir, 'server.js'), fixed, fixed);
    cacheInitializeAnswer('profile', command, answer);
    rmSync(join(dir, 'server.js'));
    writeFileSync(join(dir, 'server.js'), '// version 2, a new capability\n');
    utimesSync(join(dir, 'server.js'), fixed, fixed);
    expect(cachedInitializeAnswer('profile', command)).toBeUndefined();
  });
});
