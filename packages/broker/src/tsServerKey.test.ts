import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServerRegistry, tsServerOfServerId } from '@agent-lsp/lsp';
import { brokerKey } from './paths.js';

const root = mkdtempSync(join(tmpdir(), 'ts-server-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The broker key a front computes for `language: typescript` with this TypeScript server chosen. */
function frontKey(typescriptServer: 'tsls' | 'tsgo'): { key: string; serverId: string } {
  const server = new ServerRegistry([], { typescriptServer }).forLanguage('typescript');
  const resolved = server.resolve(root);
  if (!resolved) throw new Error(`${server.displayName} is not installed`);
  return { key: brokerKey(root, resolved.profileFingerprint), serverId: server.id };
}

describe('the TypeScript server in the broker identity', () => {
  it('gives a tsgo front and a tsls front on one root different broker keys', () => {
    const tsls = frontKey('tsls');
    const tsgo = frontKey('tsgo');
    expect(tsgo.key).not.toBe(tsls.key);
    expect(tsgo.serverId).not.toBe(tsls.serverId);
  });

  it('a broker spawned for either server id computes the key its front asked for, whatever the environment chose', () => {
    for (const choice of ['tsls', 'tsgo'] as const) {
      const { key, serverId } = frontKey(choice);
      // daemon-broker --language <serverId>: the registry it builds follows the id, then checks the key.
      const brokerServer = new ServerRegistry([], { typescriptServer: tsServerOfServerId(serverId) ?? 'tsls' }).forLanguage(serverId);
      const resolved = brokerServer.resolve(root);
      expect(resolved && brokerKey(root, resolved.profileFingerprint)).toBe(key);
    }
  });
});
