import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadCustomServers } from './customServers.js';
import { userErrorFrom } from '../../../test/helpers/userErrors.js';

let scratch: string;

beforeEach(() => {
  scratch = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-config-')));
});

afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** Writes a config file (an object is written as JSON, a string as is) and returns its path. */
function config(content: unknown): string {
  const path = join(scratch, 'servers.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** A stand-in server executable (never run) at an absolute path. */
function fakeExecutable(name: string): string {
  const path = join(scratch, name);
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
  return path;
}

const LUA = {
  language_id: 'lua',
  extensions: ['.lua'],
  command: ['lua-language-server'],
};

/** A config with one server: the valid Lua entry with `overrides` applied. */
function luaConfig(overrides: Record<string, unknown>): string {
  return config({ servers: [{ ...LUA, ...overrides }] });
}


/** Loads `path`, expecting it to be refused; returns the reason after "is invalid: ". */
function refusal(path: string): string {
  const err = userErrorFrom(() => loadCustomServers(path));
  expect(err.code).toBe('invalid_argument');
  expect(err.message.startsWith(`Server config ${path} is invalid: `)).toBe(true);
  return err.message.slice(`Server config ${path} is invalid: `.length);
}

describe('loadCustomServers with a valid config', () => {
  it('defines a server from the minimal entry', () => {
    const path = config({ servers: [LUA] });
    const [lua, ...rest] = loadCustomServers(path);
    expect(rest).toEqual([]);
    expect(lua).toMatchObject({
      id: 'lua',
      displayName: 'lua-language-server',
      languageIds: ['lua'],
      extensions: { '.lua': 'lua' },
      rootMarkers: [],
      readiness: 'canary',
    });
    expect(lua?.installHint).toContain('lua-language-server');
    expect(lua?.installHint).toContain(path);
  });

  it('lower-cases extensions, as routing looks them up in lower case', () => {
    const [server] = loadCustomServers(luaConfig({ extensions: ['.LUA', '.Luau'] }));
    expect(server?.extensions).toEqual({ '.lua': 'lua', '.luau': 'lua' });
  });

  it('keeps root markers', () => {
    const [server] = loadCustomServers(luaConfig({ root_markers: ['.luarc.json', 'stylua.toml'] }));
    expect(server?.rootMarkers).toEqual(['.luarc.json', 'stylua.toml']);
  });

  it('defines every server listed, in order', () => {
    const path = config({ servers: [LUA, { language_id: 'zig', extensions: ['.zig'], command: ['zls'] }] });
    expect(loadCustomServers(path).map((s) => s.id)).toEqual(['lua', 'zig']);
  });

  it('accepts a file that only sets the brokers\' memory budget', () => {
    expect(loadCustomServers(config({ max_broker_memory: '4G' }))).toEqual([]);
  });

  it('accepts an empty list of servers', () => {
    expect(loadCustomServers(config({ servers: [] }))).toEqual([]);
  });

  it('resolves to the command, settings and initialization options of the entry', () => {
    const exe = fakeExecutable('lua-ls');
    const [server] = loadCustomServers(
      luaConfig({
        command: [exe, '--stdio', '--log=verbose'],
        settings: { Lua: { diagnostics: { globals: ['vim'] } } },
        initialization_options: { storagePath: '/tmp/lua' },
      }),
    );
    const resolved = server?.resolve(scratch);
    expect(resolved).toMatchObject({
      command: [exe, '--stdio', '--log=verbose'],
      source: 'config',
      settings: { Lua: { diagnostics: { globals: ['vim'] } } },
      initializationOptions: { storagePath: '/tmp/lua' },
    });
    expect(resolved?.details['config']).toBe(join(scratch, 'servers.json'));
  });

  it('resolves with empty settings and no initialization options when the entry has none', () => {
    const exe = fakeExecutable('lua-ls');
    const resolved = loadCustomServers(luaConfig({ command: [exe] }))[0]?.resolve(scratch);
    expect(resolved?.settings).toEqual({});
    expect(resolved).not.toHaveProperty('initializationOptions');
  });

  it('gives a fingerprint that changes with the command and the settings', () => {
    const exe = fakeExecutable('lua-ls');
    const fingerprint = (overrides: Record<string, unknown>) =>
      loadCustomServers(luaConfig({ command: [exe], ...overrides }))[0]?.resolve(scratch)?.profileFingerprint;
    const base = fingerprint({});
    expect(base).toContain('lua');
    expect(fingerprint({ command: [exe, '--stdio'] })).not.toBe(base);
    expect(fingerprint({ settings: { Lua: {} } })).not.toBe(base);
  });

  it('resolves to nothing when the executable is not installed', () => {
    const [server] = loadCustomServers(luaConfig({ command: [join(scratch, 'not-installed'), '--stdio'] }));
    expect(server?.resolve(scratch)).toBeUndefined();
  });
});

describe('loadCustomServers with an invalid config', () => {
  it('refuses a missing file, naming it', () => {
    const path = join(scratch, 'absent.json');
    expect(refusal(path)).toMatch(/ENOENT/);
  });

  it('refuses text that is not JSON, with the parser\'s reason', () => {
    expect(refusal(config('{ "servers": [ '))).toMatch(/JSON/);
  });

  it.each([
    ['an array', []],
    ['an object without "servers"', { server: [LUA] }],
    ['"servers" as an object', { servers: { lua: LUA } }],
    ['"servers" as a string', { servers: 'lua' }],
    ['a number', 42],
  ])('refuses %s at the top level', (_label, content) => {
    expect(refusal(config(content))).toBe('expected an object with a "servers" array.');
  });

  // Fails against the current source: `null` is valid JSON, and reading `.servers` from it
  // throws a TypeError instead of a UserError.
  it('refuses null at the top level', () => {
    expect(refusal(config('null'))).toBe('expected an object with a "servers" array.');
  });

  // The null case fails against the current source: `entry.language_id` on a null entry throws
  // a TypeError instead of a UserError.
  it.each([
    ['null', null],
    ['a string', 'lua'],
  ])('refuses a server entry that is %s, naming its index', (_label, entry) => {
    expect(refusal(config({ servers: [LUA, entry] }))).toContain('servers[1]');
  });

  it.each([
    ['empty', ''],
    ['a number', 7],
  ])('refuses a language_id that is %s', (_label, languageId) => {
    expect(refusal(luaConfig({ language_id: languageId }))).toBe('servers[0].language_id must be a non-empty string.');
  });

  it.each([
    ['missing', undefined],
    ['a string', '.lua'],
    ['empty', []],
    ['not strings', [1]],
    ['partly bad', ['.lua', 'lu a']],
  ])('refuses extensions that are %s', (_label, extensions) => {
    expect(refusal(luaConfig({ extensions }))).toBe('servers[0].extensions must be a list like [".lua"].');
  });

  it.each([
    ['missing', undefined],
    ['a shell string', 'lua-language-server --stdio'],
    ['empty', []],
    ['not strings', ['lua-language-server', 1]],
  ])('refuses a command that is %s', (_label, command) => {
    expect(refusal(luaConfig({ command }))).toBe('servers[0].command must be a non-empty list of strings (argv, no shell).');
  });

  it('accepts the original agent-lsp\'s form: extensions without the dot, language_id from the first extension', () => {
    const [go, shell, other] = loadCustomServers(
      config({ servers: [{ extensions: ['go'], command: ['gopls'] }, { extensions: ['sh', 'BASH'], command: ['bash-language-server', 'start'] }, { extensions: ['frob'], command: ['frob-ls'] }] }),
    );
    expect(go).toMatchObject({ id: 'go', languageIds: ['go'], extensions: { '.go': 'go' } });
    expect(shell).toMatchObject({ id: 'shellscript', extensions: { '.sh': 'shellscript', '.bash': 'shellscript' } });
    expect(other).toMatchObject({ id: 'frob', extensions: { '.frob': 'frob' } });
  });

  it('names the index of the bad entry', () => {
    const path = config({ servers: [LUA, { ...LUA, language_id: 'zig', command: [] }] });
    expect(refusal(path)).toContain('servers[1].command');
  });

  // Fails against the current source: root_markers is not checked. A string is kept as is, and
  // inferRoot then spreads it into single-character markers (".", "l", …): "." exists in every
  // directory, so the root becomes the file's own directory.
  it('refuses root_markers that are not a list of strings', () => {
    expect(refusal(luaConfig({ root_markers: '.luarc.json' }))).toContain('servers[0].root_markers');
    expect(refusal(luaConfig({ root_markers: [1] }))).toContain('servers[0].root_markers');
  });

  // Fails against the current source: settings and initialization_options are not checked, so
  // a non-object is passed to the server as its configuration / initializationOptions.
  it.each([
    ['settings', 'verbose'],
    ['settings', ['a']],
    ['initialization_options', 'x'],
    ['initialization_options', 3],
  ])('refuses %s that is not an object (%j)', (field, value) => {
    expect(refusal(luaConfig({ [field]: value }))).toContain(`servers[0].${field}`);
  });
});
