// `agent-lsp lsp` (the editor's and host's relay to the agents' brokers, routing each file by its
// extension) on real code: one root holding the go-std corpus and Django's django/utils, one relay
// process without --language, its answers for a Go and a Python file (definition, references,
// hover) equal to gopls's and pyright's own, each started on the same root and asked directly.
import { cpSync, readFileSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { pathToUri } from '@agent-lsp/protocol';
import { BrokerTestScope, daemonsByLanguage } from '../helpers/brokers.js';
import { onPath } from '../helpers/onPath.js';
import { BIN } from '../helpers/paths.js';
import { waitUntil } from '../helpers/processes.js';
import { positionOf } from '../helpers/text.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';
import { RawServer, type ServerId } from './rawServer.js';

const goInstalled = onPath('gopls') && onPath('go');
const goStd: Corpus | NotRun = goInstalled ? prepareCorpus('go-std') : { notRun: 'gopls or go is not installed' };
const django: Corpus | NotRun = isNotRun(goStd) ? goStd : prepareCorpus('django');
afterAll(() => {
  for (const c of [goStd, django]) if (!isNotRun(c)) c.dispose();
});
const notRun = isNotRun(goStd) ? goStd.notRun : isNotRun(django) ? django.notRun : undefined;

interface Case {
  file: string;
  languageId: string;
  server: ServerId;
  needle: string;
  at: number;
}
const CASES: Case[] = [
  { file: 'go/ast/walk.go', languageId: 'go', server: 'gopls', needle: 'func Walk(', at: 5 },
  { file: 'go/printer/nodes.go', languageId: 'go', server: 'gopls', needle: 'ast.Inspect(px.X', at: 4 },
  { file: 'django/utils/functional.py', languageId: 'python', server: 'pyright', needle: 'def lazy(', at: 4 },
  { file: 'django/utils/text.py', languageId: 'python', server: 'pyright', needle: 'format_lazy = lazy(', at: 14 },
];

type Ask = (method: string, params: object) => Promise<unknown>;
interface Loc {
  uri?: string;
  range?: unknown;
  targetUri?: string;
  targetSelectionRange?: unknown;
}

/** Definition, references and hover at a position, each as a set of JSON keys (a link as its target). */
async function answers(ask: Ask, uri: string, position: { line: number; character: number }): Promise<Record<string, string[]>> {
  const at = { textDocument: { uri }, position };
  const locations = (v: unknown): string[] => ([v ?? []].flat() as Loc[]).map((l) => JSON.stringify(l.targetUri !== undefined ? { uri: l.targetUri, range: l.targetSelectionRange } : { uri: l.uri, range: l.range }));
  const hover = (await ask('textDocument/hover', at)) as { contents: unknown } | null;
  return {
    definition: locations(await ask('textDocument/definition', at)).sort(),
    references: locations(await ask('textDocument/references', { ...at, context: { includeDeclaration: true } })).sort(),
    hover: hover ? [JSON.stringify(hover.contents)] : [],
  };
}

describe.skipIf(notRun !== undefined)(`agent-lsp lsp on ${notRun ? `Go's standard library and Django: not run (${notRun})` : `${(goStd as Corpus).label} and Django's django/utils`}, one relay routing by extension`, { timeout: 180_000 }, () => {
  const scope = new BrokerTestScope();
  const raws = new Map<ServerId, RawServer>();
  let root: string;
  let home: string;
  let relay: { child: ChildProcess; rpc: MessageConnection };

  beforeAll(async () => {
    root = (goStd as Corpus).root;
    home = scope.home();
    cpSync(join((django as Corpus).root, 'django', 'utils'), join(root, 'django', 'utils'), { recursive: true });
    cpSync(join((django as Corpus).root, 'django', '__init__.py'), join(root, 'django', '__init__.py'));
    const child = spawn(process.execPath, [BIN, 'lsp', '--root', root], { env: { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home }, stdio: ['pipe', 'pipe', 'ignore'] });
    const rpc = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
    rpc.onRequest(() => null);
    rpc.listen();
    relay = { child, rpc };
    await rpc.sendRequest('initialize', { processId: process.pid, clientInfo: { name: 'field-host', version: '1' }, rootUri: pathToUri(root), capabilities: { textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] } } } });
    await rpc.sendNotification('initialized', {});
    for (const server of new Set(CASES.map((c) => c.server))) raws.set(server, await RawServer.start(server, root));
    for (const c of CASES) {
      await raws.get(c.server)!.open(c.file, c.languageId);
      await rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: pathToUri(join(root, c.file)), languageId: c.languageId, version: 1, text: readFileSync(join(root, c.file), 'utf8') } });
    }
    for (const raw of raws.values()) await raw.idle();
  }, 300_000);
  afterAll(async () => {
    if (relay) {
      await relay.rpc.sendRequest('shutdown').catch(() => undefined);
      await relay.rpc.sendNotification('exit').catch(() => undefined);
      await waitUntil(() => relay.child.exitCode !== null, 15_000, 'agent-lsp lsp to exit').catch(() => relay.child.kill('SIGTERM'));
      relay.rpc.dispose();
    }
    for (const raw of raws.values()) await raw.stop();
    await scope.cleanup();
  });

  it.each(CASES)('$file "$needle": definition, references and hover through the relay are $server\'s own', async (c) => {
    const uri = pathToUri(join(root, c.file));
    const at = positionOf(join(root, c.file), c.needle);
    const position = { line: at.line - 1, character: at.column - 1 + c.at };
    const truth = await answers((m, p) => raws.get(c.server)!.request(m, p), uri, position);
    expect(truth['references']!.length, `${c.server} finds references`).toBeGreaterThan(1);
    // The broker may still be loading the workspace (a relay has no way to say so): asked until it
    // has, then judged; whatever differs after that is wrong.
    let ours: Record<string, string[]> = {};
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 500))) {
      ours = await answers((m, p) => relay.rpc.sendRequest(m, p), uri, position);
      if (JSON.stringify(ours) === JSON.stringify(truth)) break;
    }
    for (const question of ['definition', 'references', 'hover']) {
      judge({ tool: `agent-lsp lsp ${question}`, corpus: c.languageId === 'go' ? 'go-std' : 'django', case: `${c.file} "${c.needle}"`, ...compareSets(ours[question]!, truth[question]!, true) });
    }
  });

  it('one relay joined one broker per language of the files it was asked about', () => {
    expect([...daemonsByLanguage(home).keys()].sort()).toEqual(['go', 'python']);
  });
});
