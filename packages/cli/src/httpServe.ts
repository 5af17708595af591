import type { Command } from 'commander';
import { generateToken, httpConfigurationError, serveHttp, type AgentLspServerOptions } from '@agent-lsp/server';

export interface HttpServeFlags {
  port?: string;
  listen?: string;
  listenAddr?: string;
  token?: string;
  auth?: boolean;
  allowOrigin?: string[];
  sessionIdleTimeout?: string;
  requestTimeout?: string;
  maxBodyBytes?: string;
}

function positiveNumber(value: string | undefined, flag: string, program: Command, allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || (!allowZero && n === 0)) program.error(`error: ${flag} must be a ${allowZero ? 'non-negative' : 'positive'} integer, not "${value}"`);
  return n;
}

/**
 * `serve --http`: the token (given, from AGENT_LSP_TOKEN, or generated and printed once on stderr —
 * never logged anywhere else), refusals that must stop the start, then the server until SIGTERM.
 */
export async function runHttpServe(flags: HttpServeFlags, agent: AgentLspServerOptions, program: Command, err: (line: string) => void): Promise<void> {
  const listen = flags.listenAddr ?? flags.listen ?? '127.0.0.1';
  const port = positiveNumber(flags.port ?? '0', '--port', program, true) ?? 0;
  if (port > 65535) program.error('error: --port must be at most 65535');
  const sessionIdleTimeoutMs = positiveNumber(flags.sessionIdleTimeout, '--session-idle-timeout', program);
  const requestTimeoutMs = positiveNumber(flags.requestTimeout, '--request-timeout', program);
  const maxBodyBytes = positiveNumber(flags.maxBodyBytes, '--max-body-bytes', program);
  const noAuth = flags.auth === false;
  if (noAuth && flags.token !== undefined) program.error('error: --no-auth and --token contradict each other');
  let token: string | undefined;
  if (!noAuth) {
    token = flags.token ?? (process.env['AGENT_LSP_TOKEN'] || undefined);
    if (token !== undefined && token.trim().length < 16) program.error('error: the token (--token or AGENT_LSP_TOKEN) must be at least 16 characters; omit it to have one generated');
    if (token === undefined) {
      token = generateToken();
      err(`agent-lsp: bearer token (send "Authorization: Bearer <token>"; shown once): ${token}`);
    }
  }
  const refusal = httpConfigurationError({ listen, token });
  if (refusal) program.error(`error: ${refusal}`);
  try {
    await serveHttp({
      agent,
      listen,
      port,
      token,
      allowOrigins: flags.allowOrigin ?? [],
      ...(sessionIdleTimeoutMs !== undefined ? { sessionIdleTimeoutMs } : {}),
      ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
      ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
      announce: err,
    });
  } catch (e) {
    err(`agent-lsp: cannot serve HTTP on ${listen}:${port}: ${(e as Error).message}`);
    process.exitCode = 1;
  }
}
