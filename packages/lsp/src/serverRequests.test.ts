import { describe, expect, it } from 'vitest';
import type { Registration } from 'vscode-languageserver-protocol';
import { answerConfiguration, refuseApplyEdit, RegistrationTable, settingsSection, toWorkspaceFolders } from './serverRequests.js';

const SETTINGS = {
  python: {
    pythonPath: '/venv/bin/python',
    analysis: { logLevel: 'Information', autoSearchPaths: true, extraPaths: [] as string[], stubPath: null },
  },
  gopls: { staticcheck: false },
};

describe('settingsSection', () => {
  it('gives every setting when no section is asked for', () => {
    expect(settingsSection(SETTINGS, undefined)).toBe(SETTINGS);
    expect(settingsSection(SETTINGS, '')).toBe(SETTINGS);
  });

  it('reads a top-level section', () => {
    expect(settingsSection(SETTINGS, 'gopls')).toEqual({ staticcheck: false });
  });

  it('reads a dotted section', () => {
    expect(settingsSection(SETTINGS, 'python.analysis')).toBe(SETTINGS.python.analysis);
    expect(settingsSection(SETTINGS, 'python.analysis.logLevel')).toBe('Information');
  });

  it('keeps falsy values as they are', () => {
    expect(settingsSection(SETTINGS, 'gopls.staticcheck')).toBe(false);
    expect(settingsSection(SETTINGS, 'python.analysis.extraPaths')).toEqual([]);
    expect(settingsSection(SETTINGS, 'python.analysis.stubPath')).toBeNull();
  });

  it('answers null for a missing section', () => {
    expect(settingsSection(SETTINGS, 'rust-analyzer')).toBeNull();
    expect(settingsSection(SETTINGS, 'python.linting')).toBeNull();
    expect(settingsSection(SETTINGS, 'python.analysis.logLevel.deeper')).toBeNull();
    expect(settingsSection(SETTINGS, 'python.analysis.stubPath.deeper')).toBeNull();
  });

  // Fails against the current source: `part in node` also sees Object.prototype, so these
  // return Object.prototype's members (toString, constructor, __proto__) instead of null.
  it('answers null for names that only exist on Object.prototype', () => {
    expect(settingsSection(SETTINGS, 'toString')).toBeNull();
    expect(settingsSection(SETTINGS, 'python.constructor')).toBeNull();
    expect(settingsSection(SETTINGS, 'python.__proto__')).toBeNull();
  });
});

describe('answerConfiguration', () => {
  it('answers each requested item in order', () => {
    const answer = answerConfiguration(SETTINGS, {
      items: [{ section: 'python' }, { section: 'missing' }, {}, { scopeUri: 'file:///work/app', section: 'gopls.staticcheck' }],
    });
    expect(answer).toEqual([SETTINGS.python, null, SETTINGS, false]);
  });

  it('answers an empty request with an empty list', () => {
    expect(answerConfiguration(SETTINGS, { items: [] })).toEqual([]);
  });
});

function registration(id: string, method: string): Registration {
  return { id, method, registerOptions: {} };
}

describe('RegistrationTable', () => {
  it('knows no method at first', () => {
    const table = new RegistrationTable();
    expect(table.has('textDocument/diagnostic')).toBe(false);
    expect(table.all()).toEqual([]);
  });

  it('knows the methods registered', () => {
    const table = new RegistrationTable();
    table.register({ registrations: [registration('1', 'textDocument/diagnostic'), registration('2', 'workspace/didChangeWatchedFiles')] });
    expect(table.has('textDocument/diagnostic')).toBe(true);
    expect(table.has('workspace/didChangeWatchedFiles')).toBe(true);
    expect(table.has('textDocument/hover')).toBe(false);
    expect(table.all().map((r) => r.id)).toEqual(['1', '2']);
  });

  it('forgets a method once its registration is withdrawn', () => {
    const table = new RegistrationTable();
    table.register({ registrations: [registration('1', 'textDocument/diagnostic')] });
    table.unregister({ unregisterations: [{ id: '1', method: 'textDocument/diagnostic' }] });
    expect(table.has('textDocument/diagnostic')).toBe(false);
    expect(table.all()).toEqual([]);
  });

  it('still knows a method registered twice after one registration is withdrawn', () => {
    const table = new RegistrationTable();
    table.register({ registrations: [registration('a', 'workspace/didChangeWatchedFiles')] });
    table.register({ registrations: [registration('b', 'workspace/didChangeWatchedFiles')] });
    table.unregister({ unregisterations: [{ id: 'a', method: 'workspace/didChangeWatchedFiles' }] });
    expect(table.has('workspace/didChangeWatchedFiles')).toBe(true);
  });

  it('replaces a registration re-sent with the same id', () => {
    const table = new RegistrationTable();
    table.register({ registrations: [registration('1', 'textDocument/diagnostic')] });
    table.register({ registrations: [registration('1', 'textDocument/semanticTokens')] });
    expect(table.has('textDocument/diagnostic')).toBe(false);
    expect(table.has('textDocument/semanticTokens')).toBe(true);
    expect(table.all()).toHaveLength(1);
  });

  it('ignores the withdrawal of an unknown id', () => {
    const table = new RegistrationTable();
    table.register({ registrations: [registration('1', 'textDocument/diagnostic')] });
    table.unregister({ unregisterations: [{ id: 'other', method: 'textDocument/diagnostic' }] });
    expect(table.has('textDocument/diagnostic')).toBe(true);
  });
});

describe('refuseApplyEdit', () => {
  it('refuses with a reason', async () => {
    const result = await refuseApplyEdit({ edit: { changes: {} } });
    expect(result.applied).toBe(false);
    expect(result.failureReason).toMatch(/write tools/);
  });
});

describe('toWorkspaceFolders', () => {
  it('names each folder after its last path segment', () => {
    const folders = toWorkspaceFolders(['/work/app', '/work/lib/'], (p) => `file://${p}`);
    expect(folders).toEqual([
      { uri: 'file:///work/app', name: 'app' },
      { uri: 'file:///work/lib/', name: 'lib' },
    ]);
  });

  it('names the filesystem root after itself', () => {
    expect(toWorkspaceFolders(['/'], (p) => `file://${p}`)).toEqual([{ uri: 'file:///', name: '/' }]);
  });
});
