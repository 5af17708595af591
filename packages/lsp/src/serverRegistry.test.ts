import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerDefinition } from './serverProfile.js';
import { ServerRegistry } from './serverRegistry.js';
import { userErrorFrom } from '../../../test/helpers/userErrors.js';

const registry = new ServerRegistry();

/** "server id/language id" of the server that handles `path`, or undefined. */
function routeOf(path: string, reg = registry): string | undefined {
  const found = reg.forFile(path);
  return found && `${found.server.id}/${found.languageId}`;
}


function customServer(id: string, extensions: Record<string, string>): ServerDefinition {
  return {
    id,
    displayName: `${id}-language-server`,
    languageIds: [...new Set(Object.values(extensions))],
    extensions,
    rootMarkers: [],
    readiness: 'canary',
    installHint: `install ${id}`,
    resolve: () => undefined,
  };
}

describe('ServerRegistry.forFile', () => {
  it.each([
    ['src/app.py', 'pyright/python'],
    ['stubs/typing.pyi', 'pyright/python'],
    ['src/cart.ts', 'typescript/typescript'],
    ['src/mod.mts', 'typescript/typescript'],
    ['src/mod.cts', 'typescript/typescript'],
    ['src/App.tsx', 'typescript/typescriptreact'],
    ['src/index.js', 'typescript/javascript'],
    ['src/index.mjs', 'typescript/javascript'],
    ['src/index.cjs', 'typescript/javascript'],
    ['src/App.jsx', 'typescript/javascriptreact'],
    ['main.go', 'gopls/go'],
    ['lib.c', 'clangd/c'],
    ['lib.h', 'clangd/c'],
    ['lib.cpp', 'clangd/cpp'],
    ['lib.cc', 'clangd/cpp'],
    ['lib.cxx', 'clangd/cpp'],
    ['lib.hpp', 'clangd/cpp'],
    ['lib.hh', 'clangd/cpp'],
    ['lib.hxx', 'clangd/cpp'],
    ['src/main.rs', 'rust-analyzer/rust'],
  ])('routes %s to %s', (path, route) => {
    expect(routeOf(path)).toBe(route);
  });

  it('ignores the case of the extension', () => {
    expect(routeOf('/work/APP.PY')).toBe('pyright/python');
    expect(routeOf('Widget.TSX')).toBe('typescript/typescriptreact');
  });

  it('uses only the last extension', () => {
    expect(routeOf('types.d.ts')).toBe('typescript/typescript');
    expect(routeOf('notes.py.txt')).toBeUndefined();
  });

  it('finds no server for unknown extensions, extensionless files and dotfiles', () => {
    expect(routeOf('init.frob')).toBeUndefined();
    expect(routeOf('Makefile')).toBeUndefined();
    expect(routeOf('.bashrc')).toBeUndefined();
  });

  it('lets a custom server take over a built-in extension', () => {
    const reg = new ServerRegistry([customServer('mypy-ls', { '.py': 'python' }), customServer('lua', { '.lua': 'lua' })]);
    expect(routeOf('app.py', reg)).toBe('mypy-ls/python');
    expect(routeOf('init.lua', reg)).toBe('lua/lua');
    expect(routeOf('stubs.pyi', reg)).toBe('pyright/python');
  });
});

describe('ServerRegistry.forFileOrThrow', () => {
  it('returns the route for a known extension', () => {
    const found = registry.forFileOrThrow('src/App.tsx');
    expect(found.server.id).toBe('typescript');
    expect(found.languageId).toBe('typescriptreact');
  });

  it('names the unknown extension and lists the known ones', () => {
    const err = userErrorFrom(() => registry.forFileOrThrow('scripts/init.frob'));
    expect(err.code).toBe('unknown_language');
    expect(err.message).toContain('No language server is configured for .frob (scripts/init.frob)');
    for (const ext of ['.py', '.pyi', '.ts', '.tsx', '.mjs', '.go', '.c', '.hpp', '.rs']) {
      expect(err.message).toMatch(new RegExp(`Known extensions:.* \\${ext}( |\\.)`));
    }
    expect(err.message).toContain('--config');
  });

  it('says when the file has no extension at all', () => {
    const err = userErrorFrom(() => registry.forFileOrThrow('Makefile'));
    expect(err.message).toContain('files without an extension (Makefile)');
  });

  it('lists a custom server\'s extensions among the known ones', () => {
    const reg = new ServerRegistry([customServer('frob', { '.frob': 'frob' })]);
    expect(userErrorFrom(() => reg.forFileOrThrow('x.unknown')).message).toMatch(/Known extensions: \.frob /);
  });
});

describe('ServerRegistry.knownExtensions', () => {
  it('lists each extension once', () => {
    const reg = new ServerRegistry([customServer('mypy-ls', { '.py': 'python' })]);
    const known = reg.knownExtensions();
    expect(new Set(known).size).toBe(known.length);
    expect(known).toEqual(expect.arrayContaining(['.py', '.pyi', '.tsx', '.mjs', '.hpp', '.rs']));
  });
});

describe('ServerRegistry.forLanguage', () => {
  it.each([
    ['python', 'pyright'],
    ['py', 'pyright'],
    ['pyright', 'pyright'],
    ['typescript', 'typescript'],
    ['ts', 'typescript'],
    ['tsx', 'typescript'],
    ['typescriptreact', 'typescript'],
    ['javascript', 'typescript'],
    ['js', 'typescript'],
    ['jsx', 'typescript'],
    ['go', 'gopls'],
    ['golang', 'gopls'],
    ['gopls', 'gopls'],
    ['c', 'clangd'],
    ['cpp', 'clangd'],
    ['c++', 'clangd'],
    ['rust', 'rust-analyzer'],
    ['rs', 'rust-analyzer'],
    ['rust-analyzer', 'rust-analyzer'],
  ])('finds the server for "%s": %s', (language, serverId) => {
    expect(registry.forLanguage(language).id).toBe(serverId);
  });

  it('ignores case', () => {
    expect(registry.forLanguage('Python').id).toBe('pyright');
    expect(registry.forLanguage('TSX').id).toBe('typescript');
    expect(registry.forLanguage('GoLang').id).toBe('gopls');
  });

  it('prefers a custom server for the same language', () => {
    const reg = new ServerRegistry([customServer('mypy-ls', { '.py': 'python' })]);
    expect(reg.forLanguage('py').id).toBe('mypy-ls');
    expect(reg.forLanguage('pyright').id).toBe('pyright');
  });

  it('names the unknown language and lists the known ones', () => {
    const err = userErrorFrom(() => registry.forLanguage('cobol'));
    expect(err.code).toBe('unknown_language');
    expect(err.message).toContain('Unknown language "cobol"');
    expect(err.message).toContain('python, typescript, typescriptreact, javascript, javascriptreact, go, c, cpp, rust');
  });
});

describe('ServerRegistry.forFile: a server that claims its extensions under a marker (claimsUnder)', () => {
  const root = mkdtempSync(join(tmpdir(), 'agent-lsp-claims-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'project', 'roles', 'web'), { recursive: true });
  // A marker of the test's own: the real ansible-language-server, when installed here, claims ansible.cfg.
  writeFileSync(join(root, 'project', 'project.marker'), '');
  const ansible = (installed: boolean): ServerDefinition => ({
    ...customServer('ansible-like', { '.yml': 'ansible' }),
    claimsUnder: ['project.marker'],
    resolve: () => (installed ? { command: ['ansible-like'], source: 'PATH', settings: {}, profileFingerprint: 'a', details: {} } : undefined),
  });

  it('takes the files under a directory holding the marker, at any depth, and leaves the others to the usual server', () => {
    const reg = new ServerRegistry([ansible(true)]);
    expect(routeOf(join(root, 'project', 'site.yml'), reg)).toBe('ansible-like/ansible');
    expect(routeOf(join(root, 'project', 'roles', 'web', 'main.yml'), reg)).toBe('ansible-like/ansible');
    expect(routeOf(join(root, 'elsewhere.yml'), reg)).toBe('yaml-language-server/yaml');
  });

  it('takes nothing when it is not installed', () => {
    expect(routeOf(join(root, 'project', 'site.yml'), new ServerRegistry([ansible(false)]))).toBe('yaml-language-server/yaml');
  });

  it('gives way to a configured server that takes the extension everywhere', () => {
    const reg = new ServerRegistry([customServer('my-yaml', { '.yml': 'yaml' }), ansible(true)]);
    expect(routeOf(join(root, 'project', 'site.yml'), reg)).toBe('my-yaml/yaml');
  });
});

describe('ServerRegistry.forFile: Vue projects (a package.json that depends on vue)', () => {
  const root = mkdtempSync(join(tmpdir(), 'agent-lsp-vue-claims-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'app', 'src'), { recursive: true });
  mkdirSync(join(root, 'other'), { recursive: true });
  writeFileSync(join(root, 'app', 'package.json'), JSON.stringify({ dependencies: { vue: '^3.5.0' } }));
  writeFileSync(join(root, 'other', 'package.json'), JSON.stringify({ devDependencies: { react: '^19.0.0' } }));
  const vueLike = (installed: boolean): ServerDefinition => ({
    ...customServer('vue-like', { '.vue': 'vue', '.ts': 'typescript' }),
    claimsUnder: ['package.json#vue'],
    resolve: () => (installed ? { command: ['vue-like'], source: 'PATH', settings: {}, profileFingerprint: 'v', details: {} } : undefined),
  });

  it('takes the .ts files of a project depending on vue, not those of another project', () => {
    const reg = new ServerRegistry([vueLike(true)]);
    expect(routeOf(join(root, 'app', 'src', 'shapes.ts'), reg)).toBe('vue-like/typescript');
    expect(routeOf(join(root, 'other', 'main.ts'), reg)).toBe('typescript/typescript');
  });

  it('keeps .vue files everywhere, installed or not: no other server knows them', () => {
    expect(routeOf(join(root, 'other', 'App.vue'), new ServerRegistry([vueLike(true)]))).toBe('vue-like/vue');
    expect(routeOf(join(root, 'other', 'App.vue'), new ServerRegistry([vueLike(false)]))).toBe('vue-like/vue');
    // Not installed, it takes no .ts file (which server does then depends on what this machine has: the real Vue pair, if installed).
    expect(routeOf(join(root, 'app', 'src', 'shapes.ts'), new ServerRegistry([vueLike(false)]))).not.toMatch(/^vue-like\//);
  });

  it('routes .vue files to the Vue pair by default', () => {
    expect(routeOf(join(root, 'other', 'App.vue'), new ServerRegistry())).toBe('vue-language-server/vue');
  });
});
