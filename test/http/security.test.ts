import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/paths.js';
import { temporaryHome } from '../helpers/testHome.js';
import { INITIALIZE, openSession, rawRequest, startHttpFront, type HttpFront } from './httpFront.js';

interface Health {
  status: string;
  version: string;
  uptime_seconds: number;
  sessions: number;
  servers: { total: number; ready: number };
}

async function health(front: HttpFront, headers: Record<string, string> = {}): Promise<{ status: number; body: string; health?: Health }> {
  const r = await rawRequest(front.url, { method: 'GET', path: '/health', headers });
  return r.status === 200 ? { ...r, health: JSON.parse(r.body) as Health } : r;
}

/**
 * POSTs `bytes` of body in chunks (Transfer-Encoding: chunked, no Content-Length), as a client
 * streaming a request does: the status and body of the answer, whenever it comes (the server may
 * stop reading before the body is all sent; the client's writes failing after that is expected).
 */
function chunkedPost(url: URL, bytes: number, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!req.destroyed) req.end();
    };
    req.write('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"padding":"');
    pump();
  });
}

function runCli(home: string, args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, AGENT_LSP_HOME: home }, timeout: 30_000 }, (err, _stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stderr });
    });
  });
}

describe('serve --http: who may talk to it', () => {
  const home = temporaryHome();
  let front: HttpFront;
  beforeAll(async () => {
    front = await startHttpFront(home.home, { args: ['--max-body-bytes', '20000'] });
  });
  afterAll(async () => {
    await front?.stop();
    home.remove();
  });

  it('generates a token when none is given and prints it once, on stderr only', () => {
    expect(front.token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(front.stderr().split(front.token as string).length - 1).toBe(1);
  });

  it('answers 401 without a token or with a wrong one, and no session starts', async () => {
    const none = await rawRequest(front.url, { body: INITIALIZE });
    expect(none.status).toBe(401);
    const wrong = await rawRequest(front.url, { body: INITIALIZE, headers: { authorization: `Bearer ${front.token as string}x` } });
    expect(wrong.status).toBe(401);
    const notBearer = await rawRequest(front.url, { body: INITIALIZE, headers: { authorization: `Basic ${front.token as string}` } });
    expect(notBearer.status).toBe(401);
    await expect(openSession(front.url, 'not-the-token')).rejects.toThrow(/401|Unauthorized/i);
    expect((await health(front)).health?.sessions).toBe(0);
    // A tool call without the token, on a session that does exist, runs nothing either.
    const good = await openSession(front.url, front.token);
    const sessionId = good.transport.sessionId as string;
    const call = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'start_lsp', arguments: { root_dir: '/' } } });
    const denied = await rawRequest(front.url, { body: call, headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } });
    expect(denied.status).toBe(401);
    expect(denied.body).not.toContain('result');
    await good.terminate();
  });

  it('refuses a foreign Origin with 403 and accepts loopback ones', async () => {
    const auth = { authorization: `Bearer ${front.token as string}` };
    expect((await rawRequest(front.url, { body: INITIALIZE, headers: { ...auth, origin: 'https://evil.example' } })).status).toBe(403);
    expect((await health(front, { origin: 'http://evil.example:8080' })).status).toBe(403);
    expect((await health(front, { origin: `http://localhost:${front.url.port}` })).status).toBe(200);
    const loopback = await rawRequest(front.url, { body: INITIALIZE, headers: { ...auth, origin: `http://127.0.0.1:${front.url.port}` } });
    expect(loopback.status).toBe(200);
    expect((await health(front)).health?.sessions).toBeGreaterThanOrEqual(1);
  });

  it('answers 413 to a body over the limit', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { padding: 'x'.repeat(50_000) } });
    const r = await rawRequest(front.url, { body: big, headers: { authorization: `Bearer ${front.token as string}` } });
    expect(r.status).toBe(413);
    expect(r.body).toMatch(/limit of 20000 bytes/);
  });

  it('answers 413 to a 10 MB chunked body with no Content-Length, and goes on serving', async () => {
    const r = await chunkedPost(front.url, 10 * 1024 * 1024, { authorization: `Bearer ${front.token as string}` });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringMatching(/limit of 20000 bytes/) } });
    expect((await health(front)).status).toBe(200);
    const session = await openSession(front.url, front.token);
    await session.terminate();
  });

  it('serves /health without auth and without secrets', async () => {
    const r = await health(front);
    expect(r.status).toBe(200);
    expect(r.health).toMatchObject({ status: 'ok', version: expect.any(String), sessions: expect.any(Number), servers: { total: 0, ready: 0 } });
    expect(r.body).not.toContain(front.token as string);
  });

  it('lists the tools over an authenticated session', async () => {
    const s = await openSession(front.url, front.token);
    const { tools } = await s.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('find_references');
    expect(names).toContain('create_simulation_session');
    await s.terminate();
  });
});

describe('serve --http --no-auth', () => {
  it('refuses to start on a non-loopback address', async () => {
    const home = temporaryHome();
    try {
      const r = await runCli(home.home, ['serve', '--http', '--no-auth', '--listen', '0.0.0.0', '--port', '0']);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/--no-auth is allowed only on a loopback address/);
      expect(r.stderr).not.toMatch(/listening on/);
      // The original agent-lsp's --listen-addr is the same option.
      const original = await runCli(home.home, ['serve', '--http', '--no-auth', '--listen-addr', '0.0.0.0', '--port', '0']);
      expect(original.code).not.toBe(0);
      expect(original.stderr).toMatch(/--no-auth is allowed only on a loopback address/);
    } finally {
      home.remove();
    }
  });

  it('serves loopback without a token, and SIGTERM ends it cleanly', async () => {
    const home = temporaryHome();
    const front = await startHttpFront(home.home, { args: ['--no-auth'] });
    try {
      expect(front.stderr()).not.toMatch(/shown once/);
      const s = await openSession(front.url, undefined);
      expect((await s.client.listTools()).tools.length).toBeGreaterThan(10);
      await s.close();
    } finally {
      expect(await front.stop()).toBe(0);
      home.remove();
    }
  });

  it('ends a session left idle past --session-idle-timeout; its id is then unknown (404)', async () => {
    const home = temporaryHome();
    const front = await startHttpFront(home.home, { args: ['--session-idle-timeout', '300'] });
    try {
      const s = await openSession(front.url, front.token);
      const id = s.transport.sessionId as string;
      await waitUntil(async () => (await health(front)).health?.sessions === 0, 'the idle session to end');
      const call = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} });
      const r = await rawRequest(front.url, { body: call, headers: { authorization: `Bearer ${front.token as string}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' } });
      expect(r.status).toBe(404);
      await s.close().catch(() => undefined);
    } finally {
      await front.stop();
      home.remove();
    }
  });
});

async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
