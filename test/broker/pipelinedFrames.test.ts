import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes, pathToUri } from '@agent-lsp/protocol';
import { FAULT_SERVER } from '../helpers/faultServer.js';
import { frame, frameSocket, type FrameSocket } from '../helpers/rawFrames.js';
import { startTestBroker, type TestBroker } from '../helpers/rawBroker.js';

const OPEN_ANSWER = { contents: { kind: 'markdown', value: 'fault-server hover' } };
const NOT_OPEN_ANSWER = { contents: { kind: 'markdown', value: 'fault-server: document not open' } };

/**
 * The broker's own framing (one write per message, messages decoded as their last byte arrives):
 * many messages in one write, one message dribbled a byte at a time, two clients using the same
 * ids at once. Each answer must reach the client and id that asked (the hovers of open and
 * unopened documents answer differently, so a swapped id shows), and a cancel sent in the same
 * write as its request must still reach the server under the server's id.
 */
describe('a broker fed pipelined and split frames', () => {
  let dir: string;
  let broker: TestBroker;
  const sockets: FrameSocket[] = [];
  const at = { line: 0, character: 0 };

  const connectClient = async () => {
    const s = await frameSocket(broker.info.socket);
    sockets.push(s);
    s.sendMessage({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { processId: process.pid, rootUri: null, capabilities: {} } });
    expect((await s.response('init'))?.result).toBeDefined();
    s.sendMessage({ jsonrpc: '2.0', method: 'initialized', params: {} });
    return s;
  };
  const hover = (id: number, uri: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'textDocument/hover', params: { textDocument: { uri }, position: at } });

  beforeAll(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-frames-broker-')));
    const config = join(dir, 'servers.json');
    writeFileSync(config, JSON.stringify({ servers: [{ language_id: 'fault', extensions: ['.fault'], command: [process.execPath, FAULT_SERVER] }] }));
    writeFileSync(join(dir, 'a.fault'), 'calm');
    writeFileSync(join(dir, 'b.fault'), 'calm');
    broker = await startTestBroker(dir, 'fault', { config });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers each of two clients under its own ids when both send the same ids in one write each', async () => {
    const [a, b] = [await connectClient(), await connectClient()];
    const opened = pathToUri(join(dir, 'a.fault'));
    const other = pathToUri(join(dir, 'b.fault'));
    // Client a opens a.fault; nobody opens b.fault. Odd ids ask about a.fault, even ids about b.fault
    // for client a; client b, which holds nothing, asks the reverse (its answers for a.fault come
    // from a's open copy, its answers for b.fault say "not open").
    const didOpen = JSON.stringify({ jsonrpc: '2.0', method: 'textDocument/didOpen', params: { textDocument: { uri: opened, languageId: 'fault', version: 1, text: 'calm' } } });
    a.send(Buffer.concat([frame(didOpen), frame(hover(100, opened))]));
    expect((await a.response(100))?.result).toEqual(OPEN_ANSWER);
    const ids = Array.from({ length: 24 }, (_, i) => i + 1);
    a.send(Buffer.concat(ids.map((id) => frame(hover(id, id % 2 ? opened : other)))));
    b.send(Buffer.concat(ids.map((id) => frame(hover(id, id % 2 ? other : opened)))));
    const [fromA, fromB] = await Promise.all([Promise.all(ids.map((id) => a.response(id))), Promise.all(ids.map((id) => b.response(id)))]);
    ids.forEach((id, i) => {
      expect(fromA[i]?.result, `client a, id ${id}`).toEqual(id % 2 ? OPEN_ANSWER : NOT_OPEN_ANSWER);
      expect(fromB[i]?.result, `client b, id ${id}`).toEqual(id % 2 ? NOT_OPEN_ANSWER : OPEN_ANSWER);
    });
    // Nothing was answered twice or under an id that was not asked.
    const answered = (s: FrameSocket) => s.received.filter((m) => typeof (m as { id?: unknown }).id === 'number').map((m) => (m as { id: number }).id);
    expect(answered(a).sort((x, y) => x - y)).toEqual([...ids, 100]);
    expect(answered(b).sort((x, y) => x - y)).toEqual(ids);
  });

  it('sends the server a request after the document notifications written before it in the same write', async () => {
    // The broker handles document notifications itself and relays requests beside them: a request
    // must not overtake them (it would be answered on the old text). fault/text answers with the
    // text the server holds when the request reaches it.
    const c = await connectClient();
    const uri = pathToUri(join(dir, 'ordered.fault'));
    const note = (method: string, params: unknown) => frame(JSON.stringify({ jsonrpc: '2.0', method, params }));
    const textAt = (id: number) => frame(JSON.stringify({ jsonrpc: '2.0', id, method: 'fault/text', params: { uri } }));
    for (let round = 0; round < 10; round++) {
      const base = round * 3;
      c.send(
        Buffer.concat([
          note('textDocument/didOpen', { textDocument: { uri, languageId: 'fault', version: base + 1, text: `opened ${round}` } }),
          note('textDocument/didChange', { textDocument: { uri, version: base + 2 }, contentChanges: [{ text: `changed ${round}` }] }),
          note('textDocument/didChange', { textDocument: { uri, version: base + 3 }, contentChanges: [{ text: `changed again ${round}` }] }),
          textAt(1000 + round),
          note('textDocument/didClose', { textDocument: { uri } }),
        ]),
      );
      expect((await c.response(1000 + round))?.result, `round ${round}`).toBe(`changed again ${round}`);
    }
  });

  it('reads a message dribbled one byte at a time, with a multi-byte character in its body', async () => {
    const c = await connectClient();
    const uri = pathToUri(join(dir, 'ü-ß €.fault'));
    const bytes = frame(hover(7, uri));
    for (const byte of bytes) {
      c.send(Buffer.from([byte]));
      await new Promise((r) => setImmediate(r));
    }
    expect((await c.response(7))?.result).toEqual(NOT_OPEN_ANSWER);
  });

  it('forwards a cancel that arrives in the same write as its request, under the server\'s id', async () => {
    const c = await connectClient();
    const uri = pathToUri(join(dir, 'a.fault'));
    const definition = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'textDocument/definition', params: { textDocument: { uri }, position: at } });
    const cancel = JSON.stringify({ jsonrpc: '2.0', method: '$/cancelRequest', params: { id: 1 } });
    const before = await cancelledAtServer(c, 'before');
    c.send(Buffer.concat([frame(definition), frame(hover(2, uri))]));
    // The hover's answer shows the definition reached the broker; the cancel follows in one write with another hover.
    expect((await c.response(2))?.result).toBeDefined();
    c.send(Buffer.concat([frame(cancel), frame(hover(3, uri))]));
    const answer = await c.response(1);
    expect(answer?.error?.code).toBe(ErrorCodes.RequestCancelled);
    // The server's handler of that very request saw the cancel (the fault server never answers definition otherwise).
    let after = before;
    const deadline = Date.now() + 10_000;
    while (after.length === before.length && Date.now() < deadline) after = await cancelledAtServer(c, `after-${Date.now()}`);
    expect(after.length).toBe(before.length + 1);
    expect(after.at(-1)).toBe('textDocument/definition');
  });
});

async function cancelledAtServer(c: FrameSocket, id: string): Promise<string[]> {
  c.sendMessage({ jsonrpc: '2.0', id, method: 'fault/cancelled', params: null });
  return (await c.response(id))?.result as string[];
}
