import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BUILTIN_SERVERS } from './builtinServers.js';
import { KNOWN_SERVER_DEFINITIONS, knownServerDefinition, knownServerFor } from './knownServerDefinitions.js';
import { KNOWN_SERVERS } from './knownServers.js';
import { findProjectExecutable } from './projectExecutables.js';
import { ServerRegistry } from './serverRegistry.js';

describe('the table of known language servers', () => {
  it('has at least 30 servers, each id and command once', () => {
    expect(KNOWN_SERVERS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(KNOWN_SERVERS.map((k) => k.id)).size).toBe(KNOWN_SERVERS.length);
    expect(new Set(KNOWN_SERVERS.map((k) => k.command)).size).toBe(KNOWN_SERVERS.length);
  });

  it.each(KNOWN_SERVERS.map((k) => [k.id, k] as const))('%s is well-formed', (_id, k) => {
    expect(k.id).toMatch(/^[a-z][a-z0-9_.-]*$/);
    // A bare executable name: it is looked up, never run through a shell.
    expect(k.command).toMatch(/^[A-Za-z][A-Za-z0-9_.-]*$/);
    expect(k.args.every((a) => typeof a === 'string' && a.length > 0)).toBe(true);
    const exts = Object.keys(k.extensions);
    expect(exts.length).toBeGreaterThan(0);
    for (const ext of exts) expect(ext).toMatch(/^(\.[a-z0-9]+|[a-z][a-z0-9_.-]*)$/);
    expect([...k.languageIds].sort()).toEqual([...new Set(Object.values(k.extensions))].sort());
    for (const marker of k.rootMarkers) expect(marker).toMatch(/^[^*/\\]+$/);
    expect(k.installHint.length).toBeGreaterThan(5);
    if (k.priority !== undefined) expect(Number.isInteger(k.priority)).toBe(true);
  });

  it('names a real built-in profile wherever an entry defers to one, with no extension the profile lacks', () => {
    for (const k of KNOWN_SERVERS.filter((e) => e.builtin)) {
      const profile = BUILTIN_SERVERS.find((b) => b.id === k.builtin);
      expect(profile, k.id).toBeDefined();
      for (const ext of Object.keys(k.extensions)) expect(profile?.extensions[ext], `${k.id} ${ext}`).toBe(k.extensions[ext]);
    }
  });

  it('gives every extension shared by several servers an explicit, distinct priority', () => {
    const byExt = new Map<string, { id: string; priority: number | undefined }[]>();
    for (const k of KNOWN_SERVERS) {
      for (const ext of Object.keys(k.extensions)) byExt.set(ext, [...(byExt.get(ext) ?? []), { id: k.id, priority: k.priority }]);
    }
    const shared = [...byExt].filter(([, owners]) => owners.length > 1);
    expect(shared.length).toBeGreaterThan(0);
    for (const [ext, owners] of shared) {
      expect(owners.every((o) => o.priority !== undefined), `${ext}: ${owners.map((o) => o.id).join(', ')}`).toBe(true);
      expect(new Set(owners.map((o) => o.priority)).size, `${ext} priorities`).toBe(owners.length);
    }
  });

  it('covers the languages the issue names', () => {
    const commands = KNOWN_SERVERS.map((k) => k.command);
    for (const c of ['rust-analyzer', 'gopls', 'clangd', 'ccls', 'jdtls', 'csharp-ls', 'kotlin-language-server', 'lua-language-server', 'bash-language-server', 'yaml-language-server', 'vscode-json-language-server', 'vscode-css-language-server', 'vscode-html-language-server', 'taplo', 'marksman', 'zls', 'ocamllsp', 'haskell-language-server-wrapper', 'elixir-ls', 'erlang_ls', 'ruby-lsp', 'solargraph', 'intelephense', 'phpactor', 'sourcekit-lsp', 'dart', 'terraform-ls', 'docker-langserver', 'svelteserver', 'vue-language-server', 'tailwindcss-language-server', 'texlab', 'pylsp', 'basedpyright-langserver', 'deno']) {
      expect(commands).toContain(c);
    }
  });
});

describe('the registry with the known servers', () => {
  const registry = new ServerRegistry();

  it('lists each known server once, after the built-in profiles', () => {
    const ids = registry.servers.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, BUILTIN_SERVERS.length)).toEqual(BUILTIN_SERVERS.map((b) => b.id));
    for (const k of KNOWN_SERVERS.filter((e) => !e.builtin)) expect(ids).toContain(k.id);
  });

  it('routes every extension in the table to some server', () => {
    for (const ext of new Set(KNOWN_SERVERS.flatMap((k) => Object.keys(k.extensions)))) {
      expect(registry.forFile(ext.startsWith('.') ? `/nowhere/file${ext}` : `/nowhere/${ext}`), ext).toBeDefined();
    }
  });

  it('keeps the bundled servers in front: .py is pyright, .ts is typescript, even with pylsp or deno installed', () => {
    expect(registry.forFile('/x/app.py')?.server.id).toBe('pyright');
    expect(registry.forFile('/x/app.ts')?.server.id).toBe('typescript');
    expect(registry.forFile('/x/run.sh')).toMatchObject({ server: { id: 'bash-language-server' }, languageId: 'shellscript' });
    expect(registry.forFile('/x/ci.YML')).toMatchObject({ server: { id: 'yaml-language-server' }, languageId: 'yaml' });
    // Files known by their whole name.
    expect(registry.forFile('/x/Dockerfile')).toMatchObject({ server: { id: 'dockerfile-language-server' }, languageId: 'dockerfile' });
    expect(registry.forFile('/x/Gemfile')?.languageId).toBe('ruby');
    expect(registry.forFile('/x/Makefile')).toBeUndefined();
    expect(registry.forLanguage('yaml').id).toBe('yaml-language-server');
    expect(registry.forLanguage('pylsp').id).toBe('pylsp');
  });

  it('orders the known definitions by priority where they share an extension', () => {
    const ids = KNOWN_SERVER_DEFINITIONS.map((d) => d.id);
    expect(ids.indexOf('ruby-lsp')).toBeLessThan(ids.indexOf('solargraph'));
    expect(ids.indexOf('basedpyright')).toBeLessThan(ids.indexOf('pylsp'));
    expect(ids.indexOf('vscode-css-language-server')).toBeLessThan(ids.indexOf('tailwindcss-language-server'));
  });

  it('finds a table entry by command, path or id', () => {
    expect(knownServerFor('pylsp')?.id).toBe('pylsp');
    expect(knownServerFor('/usr/bin/ccls')?.id).toBe('ccls');
    expect(knownServerFor('dockerfile-language-server')?.command).toBe('docker-langserver');
    expect(knownServerFor('no-such-server')).toBeUndefined();
  });
});

describe('finding a known server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-known-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function fakeExecutable(path: string): void {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, '#!/bin/sh\n');
    chmodSync(path, 0o755);
  }

  it('finds it in node_modules/.bin above the root, in the root\'s virtualenv, on PATH, or not at all', () => {
    const root = join(dir, 'proj', 'packages', 'web');
    mkdirSync(root, { recursive: true });
    fakeExecutable(join(dir, 'proj', 'node_modules', '.bin', 'marksman'));
    fakeExecutable(join(root, '.venv', 'bin', 'jedi-language-server'));
    fakeExecutable(join(dir, 'path', 'taplo'));
    // A home of its own: servers installed in the user's (by .ci/run) must not be found first.
    const env = { PATH: join(dir, 'path'), AGENT_LSP_HOME: join(dir, 'home') };
    expect(findProjectExecutable('marksman', root, env)).toEqual({ path: join(dir, 'proj', 'node_modules', '.bin', 'marksman'), where: 'project', details: {} });
    expect(findProjectExecutable('jedi-language-server', root, env)).toEqual({ path: join(root, '.venv', 'bin', 'jedi-language-server'), where: 'project', details: {} });
    expect(findProjectExecutable('taplo', root, env)).toEqual({ path: join(dir, 'path', 'taplo'), where: 'PATH', details: {} });
    expect(findProjectExecutable('zls', root, env)).toBeUndefined();
  });

  it('routes a file by its whole name to the server installed for it, else by its extension (compose.yaml)', () => {
    vi.stubEnv('PATH', join(dir, 'path'));
    vi.stubEnv('AGENT_LSP_HOME', join(dir, 'home'));
    vi.stubEnv('XDG_STATE_HOME', join(dir, 'state'));
    try {
      const project = join(dir, 'compose');
      fakeExecutable(join(project, 'node_modules', '.bin', 'docker-compose-langserver'));
      expect(new ServerRegistry().forFile(join(project, 'compose.yaml'))).toMatchObject({ server: { id: 'compose-language-service' }, languageId: 'dockercompose' });
      expect(new ServerRegistry().forFile(join(project, 'other.yaml'))?.server.id).toBe('yaml-language-server');
      // No compose server here: the YAML server still reads it.
      expect(new ServerRegistry().forFile(join(dir, 'elsewhere', 'compose.yaml'))).toMatchObject({ server: { id: 'yaml-language-server' }, languageId: 'yaml' });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('resolves a definition to the command with its arguments, or says how to install it', () => {
    const known = KNOWN_SERVERS.find((k) => k.id === 'marksman');
    if (!known) throw new Error('marksman is in the table');
    const def = knownServerDefinition(known);
    const root = join(dir, 'proj');
    expect(def.resolve(root)).toMatchObject({ command: [join(root, 'node_modules', '.bin', 'marksman'), 'server'], source: 'project' });
    expect(def.resolve(dir)).toBeUndefined();
    expect(def.installHint).toContain('brew install marksman');
  });
});
