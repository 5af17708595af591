// Thousands of malformed frames from several raw sockets against one pyright broker: it and its
// server survive, and a well-behaved client's answers stay right throughout. Deterministic (seeded).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Hover, Location } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri, type BrokerStats } from '@agent-lsp/protocol';
import { readDaemonFile } from '@agent-lsp/broker';
import { fixtureRoot } from '../helpers/brokers.js';
import { isAlive } from '../helpers/processes.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';
import { frame, frameSocket } from '../helpers/rawFrames.js';

const SEED = 0x5eed_12;
const FRAMES = 3000;
const SOCKETS = 4;

/** mulberry32: a small seeded PRNG, so a failure replays exactly. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
  const ascii = (n: number) => Array.from({ length: n }, () => String.fromCharCode(32 + int(95))).join('');
  return { next, int, pick, bytes, ascii };
}
type Rng = ReturnType<typeof prng>;

/** One generated frame; `framingBroken` when the broker cannot find the end of it (it then waits for bytes). */
interface Fuzzed {
  kind: string;
  bytes: Buffer;
  framingBroken?: boolean;
}

// Every method the broker interprets, and some it forwards. Never `$/agentLsp/stop`: that one is allowed to stop it.
const METHODS = [
  'initialize', 'initialized', 'shutdown', 'textDocument/didOpen', 'textDocument/didChange', 'textDocument/didClose',
  'textDocument/didSave', 'workspace/didChangeWatchedFiles', '$/cancelRequest', '$/agentLsp/acquire', '$/agentLsp/renew',
  '$/agentLsp/release', '$/agentLsp/stats', 'textDocument/hover', 'textDocument/definition', 'textDocument/references',
  'textDocument/completion', 'textDocument/documentSymbol', 'workspace/symbol', 'textDocument/diagnostic',
  'workspace/executeCommand', 'workspace/didChangeConfiguration', 'workspace/didChangeWorkspaceFolders', '$/setTrace',
];

function wrongValue(r: Rng, depth = 0): unknown {
  const scalars = [null, 0, -1, 1.5, 2 ** 53, '', 'x', 'file:///', true, false];
  if (depth > 3 || r.next() < 0.4) return r.pick(scalars);
  if (r.next() < 0.3) return Array.from({ length: r.int(4) }, () => wrongValue(r, depth + 1));
  const keys = ['textDocument', 'uri', 'version', 'text', 'languageId', 'contentChanges', 'range', 'position', 'changes', 'type', 'id', 'leaseId', 'leaseMs', 'capabilities', 'query', 'command', 'arguments', 'context', 'settings'];
  return Object.fromEntries(Array.from({ length: 1 + r.int(4) }, () => [r.pick(keys), wrongValue(r, depth + 1)]));
}

function message(r: Rng, method: string, params: unknown): Buffer {
  const asRequest = r.next() < 0.5;
  const id = r.pick([1, 2, 'a', 0, 2 ** 31]);
  return frame(JSON.stringify({ jsonrpc: '2.0', ...(asRequest ? { id } : {}), method, params }));
}

function generators(specials: { fifo: string; dir: string; root: string }): ((r: Rng) => Fuzzed)[] {
  const validBody = () => JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/hover', id: 1, params: { textDocument: { uri: 'file:///nowhere.py' }, position: { line: 0, character: 0 } } });
  return [
    (r) => ({
      kind: 'bad header',
      bytes: Buffer.from(
        r.pick([
          'Content-Lenght: 5\r\n\r\n{...}',
          'Content-Length: -1\r\n\r\n',
          'Content-Length: 1e3\r\n\r\n{}',
          'X-Custom: yes\r\n\r\n{}',
          'Content-Length: 99999999999\r\n\r\n',
          `${r.ascii(1 + r.int(1500))}\r\n\r\n`,
          `Content-Type: ${r.ascii(2000)}`,
        ]),
      ),
    }),
    (r) => ({ kind: 'binary garbage', bytes: r.bytes(1 + r.int(3000)) }),
    (r) => {
      const body = Buffer.from(validBody());
      const longer = r.next() < 0.5;
      const length = longer ? body.length + 1 + r.int(100) : r.int(body.length);
      return { kind: 'wrong content-length', bytes: Buffer.concat([Buffer.from(`Content-Length: ${length}\r\n\r\n`), body]), framingBroken: longer };
    },
    (r) => ({
      kind: 'invalid JSON',
      bytes: frame(r.pick(['{', '{"jsonrpc":"2.0",', 'nul', '[1,2', '"\\u12"', '{"a":1}}', '\u00ff\u00fe', '{"method":}', r.ascii(1 + r.int(200))])),
    }),
    (r) => {
      const depth = 257 + r.int(6000);
      const open = r.next() < 0.5 ? '[' : '{"a":';
      const close = open === '[' ? ']' : '}';
      return { kind: 'deep nesting', bytes: frame(`{"jsonrpc":"2.0","id":1,"method":"${r.pick(METHODS)}","params":{"x":${open.repeat(depth)}${close.repeat(depth)}}}`) };
    },
    (r) => ({ kind: 'wrong param types', bytes: message(r, r.pick(METHODS), wrongValue(r)) }),
    (r) => {
      const uri = pathToUri(r.pick([specials.fifo, '/dev/zero', '/dev/null', specials.dir, specials.root, '/proc/self/mem', '/']));
      return { kind: 'special file as document', bytes: frame(JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'python', version: 1, text: 'x = 1\n' } } })) };
    },
    (r) => ({ kind: 'unknown method', bytes: message(r, `${r.pick(['', '$/', 'textDocument/', 'custom/'])}${r.ascii(1 + r.int(30))}`, wrongValue(r)) }),
    (r) => ({
      kind: 'odd envelope',
      bytes: frame(
        r.pick([
          'null', '5', '"x"', '[]', '[{"jsonrpc":"2.0","method":"initialized"}]', '{}', '{"jsonrpc":"1.0","method":"x"}',
          '{"jsonrpc":"2.0","id":{},"method":"textDocument/hover","params":{}}', '{"jsonrpc":"2.0","id":null,"method":"shutdown"}',
          '{"jsonrpc":"2.0","id":7,"result":{"applied":true}}', '{"jsonrpc":"2.0","id":8,"error":{"code":"x"}}', '{"jsonrpc":"2.0","method":5}',
        ]),
      ),
    }),
  ];
}

function hoverText(h: Hover | null): string {
  const c = h?.contents;
  return typeof c === 'object' && c !== null && 'value' in c ? c.value : JSON.stringify(c);
}

describe('the broker under a fuzzed socket', () => {
  let root: string;
  let broker: TestBroker;
  let good: RawClient;
  let geometry: string;

  beforeAll(async () => {
    root = fixtureRoot('python-basic');
    broker = await startTestBroker(root, 'python');
    const file = join(root, 'python-basic', 'app', 'geometry.py');
    geometry = pathToUri(file);
    good = await rawClient(broker.info.socket, { canPull: true });
    await good.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: geometry, languageId: 'python', version: 1, text: readFileSync(file, 'utf8') } });
  });
  afterAll(async () => {
    good.close();
    await broker.stop();
    rmSync(root, { recursive: true, force: true });
  });

  /** The good client's answers: `distance` hovers as itself, `Point` in its signature goes to the class. */
  async function goodAnswers(): Promise<void> {
    const hover = await good.rpc.sendRequest<Hover>('textDocument/hover', { textDocument: { uri: geometry }, position: { line: 11, character: 5 } });
    expect(hoverText(hover)).toContain('def distance');
    const definition = await good.rpc.sendRequest<Location[]>('textDocument/definition', { textDocument: { uri: geometry }, position: { line: 11, character: 17 } });
    expect(definition.map((l) => [l.uri, l.range.start.line])).toEqual([[geometry, 6]]);
  }

  it(`survives ${FRAMES} malformed frames from ${SOCKETS} sockets, answering a good client correctly throughout`, async () => {
    const specials = { fifo: join(root, 'python-basic', 'app', 'pipe.py'), dir: join(root, 'python-basic', 'app', 'package.py'), root };
    execFileSync('mkfifo', [specials.fifo]);
    mkdirSync(specials.dir);
    await goodAnswers();
    const brokerPid = broker.process.pid as number;
    const serverPid = readDaemonFile(join(broker.home, 'daemons', broker.info.key))?.server.pid;
    expect(serverPid).toBeDefined();

    const gens = generators(specials);
    const counts = new Map<string, number>();
    let sent = 0;
    let closedByBroker = 0;
    const worker = async (w: number) => {
      const r = prng(SEED + w);
      while (sent < FRAMES) {
        const socket = await frameSocket(broker.info.socket);
        const batch = 1 + r.int(8);
        let framingBroken = false;
        for (let i = 0; i < batch && sent < FRAMES && !socket.isClosed(); i++) {
          const f = (r.pick(gens))(r);
          counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
          socket.send(f.bytes);
          sent++;
          framingBroken ||= f.framingBroken === true;
        }
        // A well-formed marker: answered once everything before it was handled, unless the broker
        // closed this client (or cannot find the frame boundary, and so waits for bytes).
        if (!framingBroken && !socket.isClosed()) {
          socket.sendMessage({ jsonrpc: '2.0', id: 'marker', method: '$/agentLsp/stats', params: null });
          await socket.response('marker', 30_000);
        }
        if (socket.isClosed()) closedByBroker++;
        socket.close();
        await socket.closed;
      }
    };
    const checker = async () => {
      while (sent < FRAMES) {
        await goodAnswers();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await Promise.all([...Array.from({ length: SOCKETS }, (_, w) => worker(w)), checker()]);

    expect(sent).toBe(FRAMES);
    expect(closedByBroker).toBeGreaterThan(0);
    expect(counts.size).toBe(gens.length);
    expect(isAlive(brokerPid)).toBe(true);
    const after = readDaemonFile(join(broker.home, 'daemons', broker.info.key));
    expect(after?.server.pid).toBe(serverPid);
    expect(after?.restarts).toBe(0);
    expect(good.socket.destroyed).toBe(false);
    await goodAnswers();
    // Nothing a fuzzing client opened outlives it (issue 29 item 2): once they are all gone, every
    // document the server holds is the good client's or the disk's text.
    const stats = () => good.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null);
    let settled = await stats();
    for (const deadline = Date.now() + 30_000; settled.clients > 1 && Date.now() < deadline; settled = await stats()) await new Promise((r) => setTimeout(r, 50));
    expect(settled.clients).toBe(1);
    expect(settled.unheldDocuments).toEqual([]);
  });
});
