import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryHome } from '../helpers/testHome.js';
import { INITIALIZE, rawRequest, startHttpFront, type HttpFront } from './httpFront.js';

const BURST = 100;

/** How many sessions the server holds, from /health. */
async function sessionCount(front: HttpFront): Promise<number> {
  const health = await rawRequest(front.url, { method: 'GET', path: '/health' });
  return (JSON.parse(health.body) as { sessions: number }).sessions;
}

function auth(front: HttpFront): Record<string, string> {
  return { authorization: `Bearer ${front.token}` };
}

/** An agent's first three messages: initialize, initialized, tools/list. Returns the session and the tool names. */
async function rawSession(front: HttpFront): Promise<{ id: string; tools: string[] }> {
  const post = (body: string, id?: string) =>
    fetch(front.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth(front), ...(id ? { 'mcp-session-id': id } : {}) },
      body,
    });
  const init = await post(INITIALIZE);
  const id = init.headers.get('mcp-session-id');
  await init.text();
  if (!init.ok || !id) throw new Error(`initialize answered ${init.status}`);
  await (await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), id)).text();
  const list = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }), id);
  const text = await list.text();
  // An answer on the event stream: `data: {json}` lines.
  const data = text.split('\n').find((l) => l.startsWith('data: '));
  const result = JSON.parse(data ? data.slice(6) : text) as { result?: { tools: { name: string }[] } };
  if (!result.result) throw new Error(`tools/list answered ${list.status}: ${text.slice(0, 200)}`);
  return { id, tools: result.result.tools.map((t) => t.name) };
}

/** Sends a whole initialize request, then resets the connection before the answer: a client that gave up. */
function initializeAndVanish(front: HttpFront): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(front.url.port), front.url.hostname, () => {
      const head = [
        `POST ${front.url.pathname} HTTP/1.1`,
        `Host: ${front.url.host}`,
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Authorization: Bearer ${front.token}`,
        `Content-Length: ${Buffer.byteLength(INITIALIZE)}`,
        '',
        '',
      ].join('\r\n');
      socket.write(head + INITIALIZE, () => {
        socket.resetAndDestroy();
        resolve();
      });
    });
    socket.once('error', reject);
  });
}

/**
 * A burst of agents opening sessions at once: every one is served (creating a session shares the
 * tool list's immutable schemas instead of building them per session), and sessions whose client
 * left before its initialize was answered are released at once, not at the 30-minute idle timeout.
 */
describe('serve --http: a burst of sessions', () => {
  const home = temporaryHome();
  let front: HttpFront;

  beforeAll(async () => {
    front = await startHttpFront(home.home);
  });
  afterAll(async () => {
    await front?.stop();
    home.remove();
  });

  it(`serves ${BURST} concurrent initialize + tools/list, and DELETE ends them all`, async () => {
    // Raw requests: agents are separate processes, and 100 MCP SDK clients in this one would
    // measure this process (each compiles every tool's output schema), not the server.
    const opened = await Promise.allSettled(Array.from({ length: BURST }, () => rawSession(front)));
    const sessions = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    try {
      expect(opened.flatMap((o) => (o.status === 'rejected' ? [String((o.reason as Error).cause ?? o.reason)] : []))).toEqual([]);
      // Every session got the whole catalogue, the same one.
      const catalogues = new Set(sessions.map((s) => s.tools.join(',')));
      expect(catalogues.size).toBe(1);
      expect(sessions[0]?.tools.length).toBeGreaterThan(60);
      expect(await sessionCount(front)).toBe(BURST);
    } finally {
      await Promise.all(sessions.map((s) => rawRequest(front.url, { method: 'DELETE', headers: { ...auth(front), 'mcp-session-id': s.id } }).catch(() => undefined)));
    }
    expect(await sessionCount(front)).toBe(0);
  });

  it('releases within seconds the sessions whose client left before initialize completed', async () => {
    await Promise.all(Array.from({ length: 40 }, () => initializeAndVanish(front)));
    const deadline = Date.now() + 20_000;
    let count = await sessionCount(front);
    while (count > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      count = await sessionCount(front);
    }
    expect(count).toBe(0);
  });
});
