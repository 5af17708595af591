import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger, RequestTimeoutError, type LspConnection } from '@agent-lsp/lsp';
import { HealthProbe, probeTimingFromEnv } from './healthProbe.js';

const TIMEOUT_MS = 300;
/** Shorter than the waits below: a working server stays silent past it. */
const BUSY_GRACE_MS = 400;

/** A connection to `server` that never answers a probe (each one times out); `notify` fakes a message from it. */
function silentConnection(server: ChildProcess): LspConnection & { notify(): void } {
  const listeners = new Set<() => void>();
  return {
    pid: server.pid,
    isAlive: true,
    request: (method: string) => new Promise((_, reject) => setTimeout(() => reject(new RequestTimeoutError(method, TIMEOUT_MS)), TIMEOUT_MS)),
    onServerNotification: (listener: () => void) => {
      listeners.add(listener);
      return { dispose: () => listeners.delete(listener) };
    },
    notify: () => listeners.forEach((l) => l()),
  } as unknown as LspConnection & { notify(): void };
}

describe('HealthProbe', () => {
  const children: ChildProcess[] = [];
  const probes: HealthProbe[] = [];
  const timers: NodeJS.Timeout[] = [];
  afterEach(() => {
    timers.splice(0).forEach(clearInterval);
    for (const p of probes.splice(0)) p.dispose();
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  const probe = (server: ChildProcess, onChange: (responsive: boolean) => void, conn = silentConnection(server)) => {
    const p = new HealthProbe({ connection: () => conn, logger: createLogger({ level: 'error', sink: () => undefined }), onChange, intervalMs: 50, timeoutMs: TIMEOUT_MS, busyGraceMs: BUSY_GRACE_MS });
    probes.push(p);
    p.start();
    return p;
  };

  it('finds a silent server that uses no CPU (stopped, deadlocked) unresponsive', async () => {
    const idle = spawn('sleep', ['60']);
    children.push(idle);
    const changed = new Promise<boolean>((resolve) => probe(idle, resolve));
    expect(await changed).toBe(false);
  });

  it('takes a silent server that is working (pyright indexing or on a long request) for busy, not unresponsive, past the busy grace', async () => {
    const busy = spawn(process.execPath, ['-e', 'for (;;);']);
    children.push(busy);
    const changes: boolean[] = [];
    const p = probe(busy, (responsive) => changes.push(responsive));
    // Several probes time out meanwhile, and the busy grace passes.
    await new Promise((r) => setTimeout(r, 5 * TIMEOUT_MS));
    expect(changes).toEqual([]);
    expect(p.responsive).toBe(true);
  });

  it('takes a silent server that uses no CPU but keeps sending messages (progress, log lines) for busy, not unresponsive', async () => {
    const idle = spawn('sleep', ['60']);
    children.push(idle);
    const conn = silentConnection(idle);
    timers.push(setInterval(() => conn.notify(), 50));
    const changes: boolean[] = [];
    const p = probe(idle, (responsive) => changes.push(responsive), conn);
    await new Promise((r) => setTimeout(r, 5 * TIMEOUT_MS));
    expect(changes).toEqual([]);
    expect(p.responsive).toBe(true);
  });
});

describe('probeTimingFromEnv', () => {
  it('probes every 5 s (answer within 10 s, a working server silent up to a minute) unless AGENT_LSP_HEALTH_PROBE_MS / AGENT_LSP_HEALTH_BUSY_GRACE_MS say otherwise; a bad value is the default, with a warning', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'warn', sink: (l) => lines.push(l) });
    expect(probeTimingFromEnv({}, logger)).toEqual({ intervalMs: 5_000, timeoutMs: 10_000, busyGraceMs: 60_000 });
    expect(probeTimingFromEnv({ AGENT_LSP_HEALTH_PROBE_MS: '250', AGENT_LSP_HEALTH_BUSY_GRACE_MS: '800' }, logger)).toEqual({ intervalMs: 250, timeoutMs: 500, busyGraceMs: 800 });
    expect(lines).toEqual([]);
    expect(probeTimingFromEnv({ AGENT_LSP_HEALTH_PROBE_MS: 'soon', AGENT_LSP_HEALTH_BUSY_GRACE_MS: '-1' }, logger)).toEqual({ intervalMs: 5_000, timeoutMs: 10_000, busyGraceMs: 60_000 });
    expect(lines.join('\n')).toContain('AGENT_LSP_HEALTH_PROBE_MS: "soon" is not a positive integer');
    expect(lines.join('\n')).toContain('AGENT_LSP_HEALTH_BUSY_GRACE_MS: "-1" is not a positive integer');
  });
});
