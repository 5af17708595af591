import { describe, expect, it } from 'vitest';
import { ServerRegistry } from '@agent-lsp/lsp';
import { originalCompat } from './originalCompat.js';
import { isOriginalForm, parseOriginalForms } from './originalForms.js';

describe("the original agent-lsp's positional forms", () => {
  it('recognises language:command pairs and the single-server form, not a mistyped command', () => {
    expect(isOriginalForm(['go:gopls', 'typescript:typescript-language-server,--stdio'])).toBe(true);
    expect(isOriginalForm(['c', 'sh'])).toBe(true);
    expect(isOriginalForm(['daemon-stauts'])).toBe(false);
    expect(isOriginalForm([])).toBe(false);
  });

  it('maps built-in commands to the built-in profiles and says the given arguments are not used', () => {
    const { servers, notes } = parseOriginalForms(['go:gopls', 'typescript:typescript-language-server,--stdio']);
    expect(servers.map((s) => s.id)).toEqual(['gopls', 'typescript']);
    expect(notes).toEqual([expect.stringContaining('typescript-language-server')]);
  });

  it('puts a known server before the built-in one for its language, with the table\'s extensions', () => {
    const { servers, notes } = parseOriginalForms(['python:pylsp', 'c:ccls']);
    expect(notes).toEqual([]);
    const registry = new ServerRegistry(servers);
    expect(registry.forFile('/x/app.py')?.server.id).toBe('pylsp');
    expect(registry.forFile('/x/point.c')?.server.id).toBe('ccls');
    expect(registry.forFile('/x/app.ts')?.server.id).toBe('typescript');
  });

  it('runs an unknown command for the language\'s extensions, with the arguments after the commas', () => {
    const [server] = parseOriginalForms(['lua:my-lua-ls,--stdio,--verbose']).servers;
    expect(server).toMatchObject({ id: 'lua:my-lua-ls', languageIds: ['lua'], extensions: { '.lua': 'lua' } });
  });

  it('takes AGENT_LSP_AUDIT_LOG, and AGENT_LSP_TOKEN without a word (serve --http reads it)', () => {
    const warnings: string[] = [];
    const compat = originalCompat([], { AGENT_LSP_AUDIT_LOG: '/tmp/audit.jsonl', AGENT_LSP_TOKEN: 'x' }, (l) => warnings.push(l));
    expect(compat).toEqual({ servers: [], auditLog: '/tmp/audit.jsonl' });
    expect(warnings).toEqual([]);
    expect(originalCompat(['daemon-stauts'], {}, (l) => warnings.push(l))).toBeUndefined();
  });
});
