import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from '@agent-lsp/lsp';
import { createAgentLspServer, type AgentLspServer, type AgentLspServerOptions } from '../createServer.js';

/** One MCP session (one `Mcp-Session-Id`): its transport and its own agent state. */
interface HttpSession {
  id: string;
  transport: StreamableHTTPServerTransport;
  agent: AgentLspServer;
  lastActivity: number;
  /** POST requests of this session being answered (a long tool call is not idleness). */
  inFlight: number;
  /** Until the client's notifications/initialized: the session is ended when it fires. */
  initializedDeadline?: NodeJS.Timeout;
}

export interface HttpSessionsOptions {
  agent: AgentLspServerOptions;
  logger: Logger;
  /** A session without requests for this long is ended, as if DELETEd. */
  idleTimeoutMs: number;
  /** A session whose client has not sent notifications/initialized this long after initialize is ended. */
  initializedTimeoutMs?: number;
}

/** Clients send notifications/initialized within milliseconds of the answer; 10 s allows for a busy one. */
export const DEFAULT_INITIALIZED_TIMEOUT_MS = 10_000;

/**
 * The MCP sessions of one HTTP server. Each session is a whole createAgentLspServer: its own
 * Workspace (roots, open documents, leases), AgentLedger (simulation sessions, audit identity) and
 * MCP server, so two agents never share state by accident. Language servers are shared through
 * brokers: every session's Workspace is one more broker client (see docs/http.md).
 */
export class HttpSessions {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: HttpSessionsOptions) {
    const every = Math.max(50, Math.min(options.idleTimeoutMs / 4, 30_000));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  private get initializedTimeoutMs(): number {
    return this.options.initializedTimeoutMs ?? DEFAULT_INITIALIZED_TIMEOUT_MS;
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Servers of every session: how many connections there are and how many are ready. */
  async serverCounts(): Promise<{ total: number; ready: number }> {
    let total = 0;
    let ready = 0;
    for (const s of this.sessions.values()) {
      for (const conn of await s.agent.workspace.liveConnections()) {
        total++;
        if (conn.readiness.snapshot().ready) ready++;
      }
    }
    return { total, ready };
  }

  /**
   * Answers one /mcp request (already authenticated, body parsed). A request naming a session goes
   * to it (404 when unknown: ended, expired, or never ours); an initialize without one starts a new session.
   */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id !== undefined) {
      const session = this.sessions.get(id);
      if (!session) return sendJsonRpcError(res, 404, -32001, 'Session not found: it ended (DELETE or idle timeout) or never existed; initialize a new one.');
      return this.track(session, req, () => session.transport.handleRequest(req, res, body));
    }
    if (req.method !== 'POST' || !isInitialize(body)) {
      return sendJsonRpcError(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header; the first request of a session must be initialize.');
    }
    return this.start(req, res, body);
  }

  private async start(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    // The id is chosen first so the session's audit lines can name it (a prefix: the id itself stays unwritten).
    const sessionId = randomUUID();
    const base = this.options.agent;
    const agent = createAgentLspServer({ ...base, ledger: { ...base.ledger, agent: `http:${sessionId.slice(0, 8)}` } });
    let session: HttpSession | undefined;
    // A client gone before its initialize was answered never learns the session id: the session is
    // released at once rather than at the idle timeout (a burst of clients giving up left hundreds).
    // (Its connection may have closed already, before this request's body was read.)
    const clientGone = () => req.socket.destroyed && !res.writableFinished;
    const release = () => {
      if (session && clientGone()) void this.end(session.id, 'its client went away before initialize was answered');
    };
    res.once('close', release);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      onsessioninitialized: (id) => {
        if (clientGone()) return;
        const started: HttpSession = { id, transport, agent, lastActivity: Date.now(), inFlight: 0 };
        session = started;
        this.sessions.set(id, started);
        this.options.logger.info(`session ${id.slice(0, 8)} started (${this.sessions.size} open)`);
        // A client that got the answer sends notifications/initialized right away; one that went
        // away meanwhile (its connection reset after the answer was written) never will.
        const deadline = setTimeout(() => void this.end(id, `no notifications/initialized within ${this.initializedTimeoutMs / 1000} s of initialize`), this.initializedTimeoutMs);
        deadline.unref();
        agent.mcp.server.oninitialized = () => clearTimeout(deadline);
        started.initializedDeadline = deadline;
      },
      onsessionclosed: (id) => void this.end(id, 'DELETE'),
    });
    await agent.mcp.connect(transport);
    try {
      await transport.handleRequest(req, res, body);
      release();
    } finally {
      // An initialize that failed (or whose client left) leaves no session behind.
      if (!session) await agent.close();
    }
  }

  private async track(session: HttpSession, req: IncomingMessage, run: () => Promise<void>): Promise<void> {
    session.lastActivity = Date.now();
    // A GET is the session's standing notification stream: open for as long as the client likes.
    const counts = req.method === 'POST';
    if (counts) session.inFlight++;
    try {
      await run();
    } finally {
      if (counts) session.inFlight--;
      session.lastActivity = Date.now();
    }
  }

  /** Ends a session: its simulation sessions, leases, open documents and direct servers go with it. */
  async end(id: string, why: string): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    clearTimeout(session.initializedDeadline);
    this.options.logger.info(`session ${id.slice(0, 8)} ended (${why}; ${this.sessions.size} open)`);
    await session.agent.close().catch((err: unknown) => this.options.logger.warn(`closing session ${id.slice(0, 8)}: ${String(err)}`));
  }

  private sweep(): void {
    const now = Date.now();
    for (const s of this.sessions.values()) {
      if (s.inFlight === 0 && now - s.lastActivity > this.options.idleTimeoutMs) void this.end(s.id, 'idle timeout');
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.keys()].map((id) => this.end(id, 'shutdown')));
  }
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');
}

export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
