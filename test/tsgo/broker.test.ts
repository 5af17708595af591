// The TypeScript server is part of a broker's identity: on one root, a front asking for tsgo never
// gets the tsls broker (nor the other way round), each finds its own broker warm again, and
// daemon-status names the server each broker runs. An unknown --ts-server is a clear error.
import { execFile, spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { InitializeResult } from 'vscode-languageserver-protocol';
import { pathToUri } from '@agent-lsp/protocol';
import { agentLspCli, BrokerTestScope, daemonDirs, daemonStatus, readDaemonJson, referenceCount, serverPids, TS_TOTAL_AREA, TYPESCRIPT_LANGUAGE_SERVER, EXPECTED_REFERENCES } from '../helpers/brokers.js';
import { ok, startAgentLsp } from '../helpers/mcpClient.js';
import { BIN } from '../helpers/paths.js';
import { waitUntil } from '../helpers/processes.js';

const scope = new BrokerTestScope();
const TSGO = /native-preview-[a-z0-9]+-[a-z0-9]+\/lib\/tsgo --lsp --stdio/;

afterEach(async () => {
  await scope.cleanup();
});

/** The ready TypeScript brokers of a home, by the server name their daemon.json gives. */
function typescriptBrokers(home: string): Map<string, { key: string; brokerPid: number; serverPid: number | undefined; profile: string }> {
  const out = new Map<string, { key: string; brokerPid: number; serverPid: number | undefined; profile: string }>();
  for (const dir of daemonDirs(home)) {
    const info = readDaemonJson(dir);
    if (info?.language !== 'typescript' || !info.ready) continue;
    out.set(info.server.name, { key: info.key, brokerPid: info.broker.pid, serverPid: info.server.pid, profile: info.profile });
  }
  return out;
}

describe('typescript-go and typescript-language-server brokers', () => {
  it('a tsgo front and a tsls front on one root get separate brokers, each found warm again; daemon-status names each server', async () => {
    const home = scope.home();
    const root = scope.root('ts-basic');
    const [tsls, tsgo] = await Promise.all([scope.front(home), scope.front(home, ['--ts-server', 'tsgo'])]);
    for (const front of [tsls, tsgo]) {
      ok(await front.call('start_lsp', { root_dir: root }));
      expect(await referenceCount(front, TS_TOTAL_AREA)).toBe(EXPECTED_REFERENCES);
    }
    expect(ok(await tsgo.call('get_server_capabilities', { language_id: 'typescript' }))['server']).toMatch(/typescript-go/);
    expect(ok(await tsls.call('get_server_capabilities', { language_id: 'typescript' }))['server']).toMatch(/typescript-language-server|typescript/);
    expect(ok(await tsls.call('get_server_capabilities', { language_id: 'typescript' }))['server']).not.toMatch(/typescript-go/);

    await waitUntil(() => typescriptBrokers(home).size === 2, 60_000, 'two ready TypeScript brokers').catch((e: Error) => {
      throw new Error(`${e.message}; daemon.json files: ${JSON.stringify(daemonDirs(home).map(readDaemonJson))}`);
    });
    const brokers = typescriptBrokers(home);
    const go = brokers.get('typescript-go');
    const ls = [...brokers.entries()].find(([name]) => name !== 'typescript-go')?.[1];
    expect(go, JSON.stringify([...brokers])).toBeDefined();
    expect(ls).toBeDefined();
    expect(go?.key).not.toBe(ls?.key);
    expect(go?.profile).toMatch(/^typescript-go\|/);
    expect(ls?.profile).toMatch(/^typescript\|/);
    expect(serverPids(home, TSGO)).toEqual([go?.serverPid]);
    expect(serverPids(home, TYPESCRIPT_LANGUAGE_SERVER)).toEqual([ls?.serverPid]);

    const status = await daemonStatus(home);
    const servers = status.daemons.filter((d) => d.language === 'typescript').map((d) => d.server);
    expect(servers).toHaveLength(2);
    expect(servers).toContainEqual(expect.stringMatching(/^typescript-go 7\./));
    expect(servers.filter((s) => !s.startsWith('typescript-go'))).toHaveLength(1);
    const text = await agentLspCli(home, ['daemon-status']);
    expect(text.stdout).toMatch(/typescript-go 7\.[^\n]* pid \d+/);

    // The environment chooses too: a third front with AGENT_LSP_TS_SERVER=tsgo finds the tsgo broker warm.
    const third = await startAgentLsp({ args: ['--daemon', 'auto'], env: { AGENT_LSP_HOME: home, AGENT_LSP_TS_SERVER: 'tsgo' } });
    scope.fronts.push(third);
    ok(await third.call('start_lsp', { root_dir: root }));
    expect(await referenceCount(third, TS_TOTAL_AREA)).toBe(EXPECTED_REFERENCES);
    expect(typescriptBrokers(home).get('typescript-go')).toMatchObject({ brokerPid: go?.brokerPid, serverPid: go?.serverPid });
    expect(serverPids(home, TSGO)).toEqual([go?.serverPid]);
  });

  it('the editor relay (`agent-lsp lsp --ts-server tsgo`) attaches to the tsgo broker agents use, not to a tsls one', async () => {
    const home = scope.home();
    const root = scope.root('ts-basic');
    const agent = await scope.front(home, ['--ts-server', 'tsgo']);
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
    await waitUntil(() => typescriptBrokers(home).has('typescript-go'), 60_000, 'a ready tsgo broker');
    const key = typescriptBrokers(home).get('typescript-go')?.key;
    const child = spawn(process.execPath, [BIN, 'lsp', '--root', root, '--language', 'typescript', '--ts-server', 'tsgo'], {
      env: { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const rpc = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    rpc.onRequest(() => null);
    rpc.listen();
    try {
      const init = await rpc.sendRequest<InitializeResult>('initialize', { processId: process.pid, rootUri: pathToUri(root), workspaceFolders: [{ uri: pathToUri(root), name: 'root' }], capabilities: {} });
      expect(init.serverInfo?.name).toBe('typescript-go');
      expect((init.capabilities.experimental as { agentLsp?: { key?: string } }).agentLsp?.key).toBe(key);
      expect(typescriptBrokers(home).size).toBe(1);
    } finally {
      rpc.dispose();
      if (child.exitCode === null) child.kill('SIGTERM');
    }
  });

  it('an unknown TypeScript server, by flag or environment, ends serve with a message naming the choices', async () => {
    const home = scope.home();
    const flag = await agentLspCli(home, ['serve', '--ts-server', 'deno']);
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toContain('--ts-server is "deno", which is not a TypeScript server: use tsls (typescript-language-server, the default) or tsgo');
    const env = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, [BIN, 'serve'], { env: { ...process.env, AGENT_LSP_HOME: home, AGENT_LSP_TS_SERVER: 'tsc' }, timeout: 60_000 }, (err, _out, stderr) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stderr });
      });
    });
    expect(env.code).not.toBe(0);
    expect(env.stderr).toContain('AGENT_LSP_TS_SERVER is "tsc", which is not a TypeScript server');
  });
});
