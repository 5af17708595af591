import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configTarget } from './clientTargets.js';
import { editClientConfig } from './configFileEdit.js';

const ENTRY = { command: '/usr/bin/node', args: ['/opt/agent-lsp/bin/agent-lsp'] };

/** init --scope project and uninstall write a project's config inside the project, never through its symlinks to elsewhere. */
describe('a project-scope config reached through a symlink', () => {
  let base: string;
  let project: string;
  let outside: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-scope-')));
    project = join(base, 'repo');
    outside = join(base, 'elsewhere');
    mkdirSync(project);
    mkdirSync(outside);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('is refused when the file or a directory on its way leads out of the project, and nothing is written there', () => {
    writeFileSync(join(outside, 'victim.json'), '{"mine": true}\n');
    symlinkSync(join(outside, 'victim.json'), join(project, '.mcp.json'));
    symlinkSync(outside, join(project, '.vscode'));
    const claude = configTarget('claude', 'project', project);
    const vscode = configTarget('vscode', 'project', project);
    if (typeof claude === 'string' || typeof vscode === 'string') throw new Error('expected targets');
    for (const [target, entry] of [[claude, ENTRY], [vscode, ENTRY], [claude, undefined]] as const) {
      const outcome = editClientConfig(target, entry, false);
      expect(outcome).toMatchObject({ action: 'refused', reason: expect.stringMatching(/outside the project .* through a symlink/) });
    }
    expect(readFileSync(join(outside, 'victim.json'), 'utf8')).toBe('{"mine": true}\n');
    expect(existsSync(join(outside, 'mcp.json'))).toBe(false);
  });

  it('is written when the symlink stays inside the project', () => {
    mkdirSync(join(project, 'config'));
    symlinkSync(join(project, 'config'), join(project, '.vscode'));
    const vscode = configTarget('vscode', 'project', project);
    if (typeof vscode === 'string') throw new Error('expected a target');
    expect(editClientConfig(vscode, ENTRY, false)).toMatchObject({ action: 'added' });
    expect(JSON.parse(readFileSync(join(project, 'config', 'mcp.json'), 'utf8'))).toMatchObject({ servers: { 'agent-lsp': ENTRY } });
  });
});
