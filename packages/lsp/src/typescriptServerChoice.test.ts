import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCustomServers } from './customServers.js';
import { ServerRegistry } from './serverRegistry.js';
import { chooseTsServer, tsServerOfServerId } from './typescriptServerChoice.js';
import { userErrorFrom } from '../../../test/helpers/userErrors.js';

const dir = mkdtempSync(join(tmpdir(), 'ts-server-choice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function config(body: unknown): string {
  const path = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(body));
  return path;
}

describe('chooseTsServer: --ts-server > AGENT_LSP_TS_SERVER > config typescript_server > tsls', () => {
  const tsgoConfig = config({ typescript_server: 'tsgo' });
  const tslsConfig = config({ typescript_server: 'tsls' });

  it('defaults to typescript-language-server', () => {
    expect(chooseTsServer({})).toBe('tsls');
    expect(chooseTsServer({ configPath: config({ servers: [] }) })).toBe('tsls');
  });

  it('takes the config file when neither flag nor environment says', () => {
    expect(chooseTsServer({ configPath: tsgoConfig })).toBe('tsgo');
  });

  it('prefers the environment to the config file', () => {
    expect(chooseTsServer({ env: 'tsls', configPath: tsgoConfig })).toBe('tsls');
    expect(chooseTsServer({ env: 'tsgo', configPath: tslsConfig })).toBe('tsgo');
  });

  it('prefers the flag to both', () => {
    expect(chooseTsServer({ flag: 'tsls', env: 'tsgo', configPath: tsgoConfig })).toBe('tsls');
    expect(chooseTsServer({ flag: 'TSGO', env: 'tsls', configPath: tslsConfig })).toBe('tsgo');
  });

  it('treats an empty flag or environment as not given', () => {
    expect(chooseTsServer({ flag: '', env: '', configPath: tsgoConfig })).toBe('tsgo');
  });

  it('rejects an unknown name, saying where it came from and what is accepted', () => {
    expect(userErrorFrom(() => chooseTsServer({ flag: 'deno' })).message).toMatch(/--ts-server is "deno".*tsls.*tsgo/);
    expect(userErrorFrom(() => chooseTsServer({ env: 'tsc' })).message).toMatch(/AGENT_LSP_TS_SERVER is "tsc"/);
    const bad = config({ typescript_server: 'native' });
    expect(userErrorFrom(() => chooseTsServer({ configPath: bad })).message).toContain(`typescript_server in ${bad} is "native"`);
    expect(userErrorFrom(() => chooseTsServer({ configPath: config({ typescript_server: 7 }) })).message).toMatch(/typescript_server must be "tsls" or "tsgo"/);
  });

  it('a config file holding only typescript_server configures no custom server', () => {
    expect(loadCustomServers(tsgoConfig)).toEqual([]);
  });
});

describe('ServerRegistry with a TypeScript server chosen', () => {
  it('routes TypeScript and JavaScript files and the typescript language to the chosen one only', () => {
    const tsls = new ServerRegistry();
    const tsgo = new ServerRegistry([], { typescriptServer: 'tsgo' });
    for (const file of ['src/a.ts', 'src/A.tsx', 'src/b.mjs', 'src/C.jsx']) {
      expect(tsls.forFile(file)?.server.id).toBe('typescript');
      expect(tsgo.forFile(file)?.server.id).toBe('typescript-go');
    }
    expect(tsgo.forFile('src/a.tsx')?.languageId).toBe('typescriptreact');
    for (const language of ['typescript', 'ts', 'javascript', 'typescriptreact']) {
      expect(tsls.forLanguage(language).displayName).toBe('typescript-language-server');
      expect(tsgo.forLanguage(language).displayName).toBe('typescript-go');
    }
    // Other languages are not affected.
    expect(tsgo.forFile('app.py')?.server.id).toBe('pyright');
  });

  it('still finds the other profile by its own server id (a broker spawned for it), and lists both', () => {
    expect(new ServerRegistry().forLanguage('typescript-go').displayName).toBe('typescript-go');
    expect(new ServerRegistry([], { typescriptServer: 'tsgo' }).forLanguage('typescript').id).toBe('typescript-go');
    const ids = new ServerRegistry().servers.map((s) => s.id);
    expect(ids).toContain('typescript');
    expect(ids).toContain('typescript-go');
  });

  it('a broker gets the TypeScript server of the id it was spawned for, whatever its environment', () => {
    expect(tsServerOfServerId('typescript-go')).toBe('tsgo');
    expect(tsServerOfServerId('typescript')).toBe('tsls');
    expect(tsServerOfServerId('pyright')).toBeUndefined();
    const brokerFor = (id: string) => new ServerRegistry([], { typescriptServer: tsServerOfServerId(id) ?? 'tsls' }).forLanguage(id);
    expect(brokerFor('typescript').displayName).toBe('typescript-language-server');
    expect(brokerFor('typescript-go').displayName).toBe('typescript-go');
  });

  it('resolves the bundled tsgo binary, with a profile of its own', () => {
    const tsgo = new ServerRegistry([], { typescriptServer: 'tsgo' }).forLanguage('typescript').resolve(dir);
    const tsls = new ServerRegistry().forLanguage('typescript').resolve(dir);
    expect(tsgo?.command.slice(1)).toEqual(['--lsp', '--stdio']);
    expect(tsgo?.command[0]).toMatch(/native-preview-[a-z0-9]+-[a-z0-9]+\/lib\/tsgo(\.exe)?$/);
    expect(tsgo?.version).toMatch(/^typescript-go 7\./);
    expect(tsgo?.profileFingerprint).not.toBe(tsls?.profileFingerprint);
  });
});
