import type * as NodeHttp from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { AGENT_LSP_VERSION } from '@agent-lsp/protocol';
import type { AgentLspServerOptions } from '../createServer.js';
import { bearerMatches, isLoopbackAddress, originAllowed } from './httpSecurity.js';
import { BodyError, lingerAfterRefusal, readJsonBody } from './requestBody.js';

export const MCP_PATH = '/mcp';
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;
/** Receiving a whole request (headers and body) may take this long; answers may stream for longer. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export interface HttpServeOptions {
  agent: AgentLspServerOptions;
  listen: string;
  /** 0: the OS picks one (printed on stderr). */
  port: number;
  /** The bearer token every /mcp request must carry; undefined only with --no-auth on loopback. */
  token: string | undefined;
  /** Origins allowed besides loopback ones (and requests without Origin). */
  allowOrigins: readonly string[];
  maxBodyBytes?: number;
  requestTimeoutMs?: number;
  sessionIdleTimeoutMs?: number;
  /** One line for the operator (stderr). */
  announce(line: string): void;
}

/** What refuses to start: `--no-auth` on an address other hosts can reach. */
export function httpConfigurationError(options: Pick<HttpServeOptions, 'listen' | 'token'>): string | undefined {
  if (options.token === undefined && !isLoopbackAddress(options.listen)) {
    return `--no-auth is allowed only on a loopback address (127.0.0.1, ::1, localhost), not --listen ${options.listen}: anyone who can reach it could run tools as you. Give a token (--token or AGENT_LSP_TOKEN) instead.`;
  }
  return undefined;
}

/**
 * Serves MCP over Streamable HTTP at /mcp (bearer token, Origin allow-list, body and time limits)
 * and GET /health, until SIGTERM or SIGINT; then ends every session (and the servers their
 * workspaces started; brokers keep running) and resolves.
 */
export async function serveHttp(options: HttpServeOptions): Promise<void> {
  const configError = httpConfigurationError(options);
  if (configError) throw new Error(configError);
  const logger = options.agent.logger.child('http');
  // Loaded here, not with the package: the SDK's HTTP transport (hono, undici, http2) is ~15 ms of
  // every stdio front's start that only --http uses; node:http's parser binding cannot go into
  // the start-up snapshot (scripts/snapshotEntry.cjs). Required, not imported: the bundle runs in a
  // vm.Script, which has no dynamic import of node's modules.
  const { HttpSessions, sendJsonRpcError } = await import('./httpSessions.js');
  const { createServer } = createRequire(import.meta.url)('node:http') as typeof NodeHttp;
  const sessions = new HttpSessions({ agent: options.agent, logger, idleTimeoutMs: options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS });
  const startedAt = Date.now();
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const loopback = isLoopbackAddress(options.listen);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    if (!originAllowed(origin, options.allowOrigins)) {
      return sendJsonRpcError(res, 403, -32000, `Forbidden: Origin ${origin} is not allowed (loopback origins are; add others with --allow-origin).`);
    }
    // A server on loopback answers loopback host names only: a rebound DNS name is someone else's page.
    if (loopback && !hostIsLoopback(req.headers.host)) {
      return sendJsonRpcError(res, 403, -32000, `Forbidden: Host ${req.headers.host ?? '(none)'} is not a loopback name.`);
    }
    if (url.pathname === '/health') {
      if (req.method !== 'GET') return sendJsonRpcError(res, 405, -32000, 'Method not allowed: /health answers GET.', { allow: 'GET' });
      const servers = await sessions.serverCounts();
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ status: 'ok', version: AGENT_LSP_VERSION, uptime_seconds: Math.round((Date.now() - startedAt) / 1000), sessions: sessions.size, servers }));
      return;
    }
    if (url.pathname !== MCP_PATH) return sendJsonRpcError(res, 404, -32000, `Not found: MCP is served at ${MCP_PATH}, health at /health.`);
    if (options.token !== undefined && !bearerMatches(req, options.token)) {
      req.resume();
      return sendJsonRpcError(res, 401, -32001, 'Unauthorized: send Authorization: Bearer <token> (the --token or AGENT_LSP_TOKEN of this server).', {
        'www-authenticate': 'Bearer realm="agent-lsp"',
      });
    }
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = await readJsonBody(req, maxBody);
      } catch (err) {
        if (err instanceof BodyError) {
          // No `connection: close` on a 413: Node would close the socket as soon as the answer is
          // written, with the client's bytes unread (a reset); the rest is read and dropped instead.
          sendJsonRpcError(res, err.status, err.status === 400 ? -32700 : -32000, err.message, err.status === 413 ? {} : { connection: 'close' });
          if (err.status === 413) lingerAfterRefusal(req);
          return;
        }
        throw err;
      }
    }
    await sessions.handle(req, res, body);
  };

  // Node checks the request timeout every connectionsCheckingInterval (30 s by default): a request
  // dripping its body was cut off only at 30 + up to 30 s. Checked each second, it is cut off at 30 s.
  const server = createServer({ connectionsCheckingInterval: 1_000 }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      logger.error(`${req.method} ${req.url}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      sendJsonRpcError(res, 500, -32603, 'Internal error; the server log on stderr has details.');
    });
  });
  server.requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  server.headersTimeout = Math.min(server.requestTimeout, 10_000);
  // Idle keep-alive connections are closed by the client first (it follows the Keep-Alive hint,
  // minus a second): a busy client reusing one the server had just closed got "other side closed".
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.listen, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  options.announce(`agent-lsp: listening on http://${host}:${address.port}${MCP_PATH}`);

  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (why: string) => {
      if (stopping) return;
      stopping = true;
      logger.info(`shutting down (${why})`);
      server.close();
      void sessions.closeAll().finally(() => {
        server.closeAllConnections();
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

function hostIsLoopback(host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    return isLoopbackAddress(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
