import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
});
