import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { InitializeResult } from 'vscode-languageserver-protocol';
import { pathToUri } from '@agent-lsp/protocol';
import { RawServer } from '../field/rawServer.js';
import { agentLspCli, BrokerTestScope, daemonsByLanguage } from '../helpers/brokers.js';
import { BIN } from '../helpers/paths.js';
import { waitUntil } from '../helpers/processes.js';

const GEOMETRY = 'python-basic/app/geometry.py';
const SHAPES = 'ts-basic/src/shapes.ts';

interface Host {
  child: ChildProcess;
  rpc: MessageConnection;
}

/** `agent-lsp lsp` with neither --root nor --language, as Claude Code, Neovim or Helix start it. */
function startHost(home: string, args: string[] = []): Host {
  const child = spawn(process.execPath, [BIN, 'lsp', ...args], { env: { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home }, stdio: ['pipe', 'pipe', 'ignore'] });
  const rpc = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  rpc.onRequest(() => null);
  rpc.listen();
  return { child, rpc };
}

/** The questions an LSP host asks (Claude Code's LSP tool: definition, references, hover, symbols, call hierarchy), at one position. */
async function questions(ask: (method: string, params: object) => Promise<unknown>, uri: string, position: { line: number; character: number }): Promise<Record<string, unknown>> {
  const at = { textDocument: { uri }, position };
  const items = (await ask('textDocument/prepareCallHierarchy', at)) as object[] | null;
  return {
    definition: await ask('textDocument/definition', at),
    references: await ask('textDocument/references', { ...at, context: { includeDeclaration: true } }),
    hover: await ask('textDocument/hover', at),
    symbols: await ask('textDocument/documentSymbol', { textDocument: { uri } }),
    callHierarchy: items,
    incoming: items?.[0] ? await ask('callHierarchy/incomingCalls', { item: items[0] }) : null,
  };
}

/**
 * What the answers say, in a stable order: a definition as file and name range (a Location, or a
 * LocationLink's target: the broker's server was told its clients take links), references and
 * callers sorted, a caller by name, file and call sites (a module caller's own extent depends on
 * how the file was last sent, not on the question).
 */
function normalized(answers: Record<string, unknown>): Record<string, unknown> {
  const sort = (v: unknown[]) => v.map((x) => JSON.stringify(x)).sort();
  type Loc = { uri?: string; range?: unknown; targetUri?: string; targetSelectionRange?: unknown };
  const definitions = ([answers['definition'] ?? []].flat() as Loc[]).map((d) => (d.targetUri !== undefined ? { uri: d.targetUri, range: d.targetSelectionRange } : { uri: d.uri, range: d.range }));
  type Call = { from: { name: string; uri: string }; fromRanges: unknown };
  const incoming = ((answers['incoming'] ?? []) as Call[]).map((c) => ({ name: c.from.name, uri: c.from.uri, fromRanges: c.fromRanges }));
  return { ...answers, definition: sort(definitions), references: sort((answers['references'] ?? []) as unknown[]), incoming: sort(incoming) };
}

function positionOf(text: string, needle: string): { line: number; character: number } {
  const before = text.slice(0, text.indexOf(needle)).split('\n');
  return { line: before.length - 1, character: (before.at(-1) as string).length };
}

describe('agent-lsp lsp as a host\'s server: one process, routed by file to each language\'s broker', () => {
  const scope = new BrokerTestScope();
  const hosts: Host[] = [];
  const raws: RawServer[] = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) {
      if (h.child.exitCode === null) h.child.kill('SIGTERM');
      h.rpc.dispose();
    }
    for (const r of raws.splice(0)) await r.stop();
    await scope.cleanup();
  });

  it('Python and TypeScript answers equal the servers\' own; the root comes from workspaceFolders; unsaved text stays the host\'s', async () => {
    const home = scope.home();
    const root = scope.root('python-basic', 'ts-basic');
    const host = startHost(home);
    hosts.push(host);
    // As Helix and Claude Code may: no rootUri, the root as the first workspace folder.
    const init = await host.rpc.sendRequest<InitializeResult>('initialize', {
      processId: process.pid,
      clientInfo: { name: 'test-host', version: '1' },
      rootUri: null,
      workspaceFolders: [{ uri: pathToUri(root), name: 'root' }],
      capabilities: { textDocument: { publishDiagnostics: { versionSupport: true }, callHierarchy: {}, documentSymbol: { hierarchicalDocumentSymbolSupport: true } } },
    });
    await host.rpc.sendNotification('initialized', {});
    expect(init.capabilities.definitionProvider).toBeTruthy();

    const cases = [
      { rel: GEOMETRY, languageId: 'python', server: 'pyright' as const, needle: 'distance(a: Point' },
      { rel: SHAPES, languageId: 'typescript', server: 'typescript' as const, needle: 'totalArea(shapes' },
    ];
    for (const c of cases) {
      const text = readFileSync(join(root, c.rel), 'utf8');
      await host.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: pathToUri(join(root, c.rel)), languageId: c.languageId, version: 1, text } });
    }
    for (const c of cases) {
      const uri = pathToUri(join(root, c.rel));
      const position = positionOf(readFileSync(join(root, c.rel), 'utf8'), c.needle);
      // The ground truth: the same server, started on the same root and asked directly.
      const raw = await RawServer.start(c.server, root);
      raws.push(raw);
      await raw.open(c.rel, c.languageId);
      await raw.idle();
      const expected = normalized(await questions((m, p) => raw.request(m, p), uri, position));
      expect((expected['references'] as unknown[]).length, `${c.server} finds references`).toBeGreaterThan(1);
      // The broker may still be loading the project: asked again until it has (never a timing assert).
      let got: Record<string, unknown> = {};
      for (const deadline = Date.now() + 90_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
        got = normalized(await questions((m, p) => host.rpc.sendRequest(m, p), uri, position));
        if (JSON.stringify(got) === JSON.stringify(expected)) break;
      }
      expect(got).toEqual(expected);
    }
    // One process, two brokers, each listing this host.
    const daemons = daemonsByLanguage(home);
    expect([...daemons.keys()].sort()).toEqual(['python', 'typescript']);
    for (const d of daemons.values()) expect(d.clientList?.some((c) => c.name === 'test-host')).toBe(true);
    // workspace/symbol asks every broker joined: a Python and a TypeScript symbol in one answer.
    const symbols = async (query: string) => (await host.rpc.sendRequest<{ name: string }[]>('workspace/symbol', { query })).map((s) => s.name);
    expect(await symbols('distance')).toContain('distance');
    expect(await symbols('totalArea')).toContain('totalArea');

    // The host's unsaved text is its own: another host on the same brokers sees the disk text.
    const geometryUri = pathToUri(join(root, GEOMETRY));
    await host.rpc.sendNotification('textDocument/didChange', { textDocument: { uri: geometryUri, version: 2 }, contentChanges: [{ text: `${readFileSync(join(root, GEOMETRY), 'utf8')}\ndef unsaved_only() -> int:\n    return 1\n` }] });
    const names = async (h: Host) => (await h.rpc.sendRequest<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri: geometryUri } })).map((s) => s.name);
    expect(await names(host)).toContain('unsaved_only');
    const other = startHost(home);
    hosts.push(other);
    await other.rpc.sendRequest('initialize', { processId: process.pid, rootUri: pathToUri(root), capabilities: {} });
    await other.rpc.sendNotification('initialized', {});
    await other.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: geometryUri, languageId: 'python', version: 1, text: readFileSync(join(root, GEOMETRY), 'utf8') } });
    const theirs = await names(other);
    expect(theirs).toContain('distance');
    expect(theirs).not.toContain('unsaved_only');
    expect(await names(host)).toContain('unsaved_only');

    await host.rpc.sendRequest('shutdown');
    await host.rpc.sendNotification('exit');
    await waitUntil(() => host.child.exitCode !== null, 15_000, 'agent-lsp lsp to exit');
    expect(host.child.exitCode).toBe(0);
  }, 300_000);

  it('a host that starts a language\'s agent-lsp lsp with its session (as Claude Code starts every plugin server) starts no server until it opens a file of that language', async () => {
    const home = scope.home();
    const root = join(scope.root('python-basic'), 'python-basic');
    const init = { processId: process.pid, rootUri: pathToUri(root), capabilities: {} };
    // The first start on this machine: the broker starts, and its initialize answer is kept.
    const first = startHost(home, ['--language', 'pyright']);
    hosts.push(first);
    const firstInit = await first.rpc.sendRequest<InitializeResult>('initialize', init);
    const key = (firstInit.capabilities.experimental as { agentLsp: { key: string } }).agentLsp.key;
    await first.rpc.sendRequest('shutdown');
    await first.rpc.sendNotification('exit');
    await waitUntil(() => first.child.exitCode !== null, 15_000, 'the first agent-lsp lsp to exit');
    expect((await agentLspCli(home, ['daemon-stop', '--all'])).code).toBe(0);
    expect(daemonsByLanguage(home).size).toBe(0);

    // A later session: answered at once with the server's capabilities, and nothing started.
    const host = startHost(home, ['--language', 'pyright']);
    hosts.push(host);
    const answer = await host.rpc.sendRequest<InitializeResult>('initialize', init);
    await host.rpc.sendNotification('initialized', {});
    expect(answer.capabilities.hoverProvider).toEqual(firstInit.capabilities.hoverProvider);
    expect(answer.capabilities.referencesProvider).toBeTruthy();
    expect((answer.capabilities.experimental as { agentLsp: { key: string } }).agentLsp.key).toBe(key);
    expect(daemonsByLanguage(home).size).toBe(0);

    // The first Python file it opens starts the broker, and the question is answered by pyright.
    const uri = pathToUri(join(root, 'app', 'geometry.py'));
    const text = readFileSync(join(root, 'app', 'geometry.py'), 'utf8');
    await host.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
    const hover = await host.rpc.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri }, position: positionOf(text, 'distance(a: Point') });
    expect(hover?.contents.value).toMatch(/def distance\([\s\S]*a: Point[\s\S]*-> float/);
    expect([...daemonsByLanguage(home).keys()]).toEqual(['python']);
    await host.rpc.sendRequest('shutdown');
    await host.rpc.sendNotification('exit');
    await waitUntil(() => host.child.exitCode !== null, 15_000, 'agent-lsp lsp to exit');
    expect(host.child.exitCode).toBe(0);
  }, 180_000);
});
