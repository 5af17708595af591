import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';

describe('started as the original agent-lsp was', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-original-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('takes `python:pyright-langserver,--stdio` as the built-in pyright and appends the audit log to AGENT_LSP_AUDIT_LOG', async () => {
    const auditLog = join(dir, 'audit.jsonl');
    const agent = await startAgentLsp({ args: ['python:pyright-langserver,--stdio'], env: { AGENT_LSP_AUDIT_LOG: auditLog } });
    try {
      const detected = ok(await agent.call('detect_lsp_servers', { root_dir: join(FIXTURES, 'python-basic') }));
      expect(detected['languages']).toEqual(expect.arrayContaining([expect.objectContaining({ language: 'python', server: 'pyright', installed: true })]));
      // Its name for the directory, on a front with no workspace yet: that directory is scanned.
      const tsDetected = ok(await agent.call('detect_lsp_servers', { workspace_dir: join(FIXTURES, 'ts-basic') }));
      expect(tsDetected['root']).toBe(join(FIXTURES, 'ts-basic'));
      expect(tsDetected['languages']).toEqual(expect.arrayContaining([expect.objectContaining({ language: expect.stringContaining('typescript') })]));
      expect(tsDetected['languages']).not.toContainEqual(expect.objectContaining({ language: 'python' }));
    } finally {
      await agent.close();
    }
    expect(existsSync(auditLog)).toBe(true);
    const lines = readFileSync(auditLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool?: string });
    expect(lines.map((l) => l.tool)).toContain('detect_lsp_servers');
  });

  /**
   * detect_lsp_servers on a project of one .xyz and one .py file, the front started with the
   * arguments `args` makes of a config file holding `servers` (the original's format).
   */
  async function detectedWithConfig(name: string, servers: unknown[], args: (config: string) => string[]): Promise<unknown> {
    const project = join(dir, name);
    mkdirSync(project);
    writeFileSync(join(project, 'notes.xyz'), 'x\n');
    writeFileSync(join(project, 'tool.py'), 'x = 1\n');
    const config = join(dir, `${name}.json`);
    writeFileSync(config, JSON.stringify({ servers }, null, 2));
    const agent = await startAgentLsp({ args: args(config) });
    try {
      return ok(await agent.call('detect_lsp_servers', { root_dir: project }))['languages'];
    } finally {
      await agent.close();
    }
  }
  const XYZ_SERVER = { extensions: ['xyz'], command: ['xyz-language-server', '--stdio'] };
  const XYZ_AND_PYRIGHT = [
    expect.objectContaining({ language: 'xyz', server: 'xyz-language-server', installed: false }),
    expect.objectContaining({ language: 'python', server: 'pyright', installed: true }),
  ];

  it('takes the original\'s config file unchanged with --merge-config: its servers join the built-in ones', async () => {
    const languages = await detectedWithConfig('mixed', [XYZ_SERVER], (config) => ['--merge-config', '--config', config]);
    expect(languages).toEqual(expect.arrayContaining(XYZ_AND_PYRIGHT));
  });

  // The original's own invocations (its --help): `agent-lsp --merge-config /path/to/config.json`
  // and `agent-lsp --config /path/to/config.json`, the file in its format (cclsp.json's: extensions
  // without the dot, command as argv, language_id optional), read unchanged.
  for (const flag of ['--merge-config', '--config']) {
    it(`takes \`agent-lsp ${flag} <file>\` with the original's config file unchanged: its servers join the built-in ones`, async () => {
      const languages = await detectedWithConfig(`as-original${flag}`, [XYZ_SERVER, { extensions: ['go'], command: ['gopls'], language_id: 'go' }], (config) => [flag, config]);
      expect(languages).toEqual(expect.arrayContaining(XYZ_AND_PYRIGHT));
    });
  }
});
