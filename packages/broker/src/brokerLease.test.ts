import { ResponseError } from 'vscode-jsonrpc/node';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_LSP_PROTOCOL_VERSION, BrokerAcquireRequest, BrokerReleaseRequest, BrokerRenewRequest, ErrorCodes, UserError } from '@agent-lsp/protocol';
import { attachReadinessStrategy, createLinkedTransport, createLogger, LspConnection, type LinkedTransport, type ServerDefinition } from '@agent-lsp/lsp';
import { BrokerLeaseAccess, LeaseLostError } from './brokerLease.js';

const server: ServerDefinition = {
  id: 'fake',
  displayName: 'fake-broker',
  languageIds: ['fake'],
  extensions: { '.fake': 'fake' },
  rootMarkers: [],
  readiness: 'canary',
  installHint: 'a unit-test peer',
  resolve: () => ({ command: [], source: 'config', settings: {}, profileFingerprint: 'fake', details: {} }),
};

interface FakeBroker {
  link: LinkedTransport;
  conn: LspConnection;
  calls: string[];
}

/** A front's connection to an in-memory "broker" that answers the lease methods as `answers` say. */
async function fakeBroker(answers: { acquire?: () => unknown; renew?: () => unknown; release?: () => unknown } = {}): Promise<FakeBroker> {
  const link = createLinkedTransport();
  const calls: string[] = [];
  const { peer } = link;
  peer.onRequest('initialize', () => ({ capabilities: { experimental: { agentLsp: { protocol: AGENT_LSP_PROTOCOL_VERSION, key: 'k', state: 'ready', ready: true } } } }));
  peer.onRequest('shutdown', () => null);
  peer.onRequest(BrokerAcquireRequest.method, () => (calls.push('acquire'), answers.acquire ? answers.acquire() : { leaseId: 'L', expiresAt: Date.now() + 60_000 }));
  peer.onRequest(BrokerRenewRequest.method, () => (calls.push('renew'), answers.renew ? answers.renew() : { leaseId: 'L', expiresAt: Date.now() + 60_000 }));
  peer.onRequest(BrokerReleaseRequest.method, () => (calls.push('release'), answers.release ? answers.release() : null));
  peer.listen();
  const conn = await LspConnection.start({
    transport: link.transport,
    server,
    resolved: server.resolve('/') as NonNullable<ReturnType<ServerDefinition['resolve']>>,
    rootDir: '/tmp',
    workspaceFolders: ['/tmp'],
    logger: createLogger({ level: 'error', sink: () => undefined }),
    exclusiveAccess: new BrokerLeaseAccess(undefined, { renewEveryMs: 20 }),
    attachReadiness: attachReadinessStrategy,
  });
  return { link, conn, calls };
}

/** Runs a section that waits until its signal aborts (or `ms` passes), and returns what it saw. */
function sectionUntilLost(conn: LspConnection, ms = 5000, entered: () => void = () => undefined): Promise<{ aborted: boolean; reason: unknown }> {
  return conn.runExclusive(
    (lost) =>
      new Promise((resolve) => {
        entered();
        const done = () => resolve({ aborted: lost.aborted, reason: lost.reason });
        const timer = setTimeout(done, ms);
        lost.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
      }),
    { leaseMs: 60_000 },
  );
}

describe('BrokerLeaseAccess', () => {
  const opened: FakeBroker[] = [];
  afterEach(async () => {
    for (const b of opened.splice(0)) await b.conn.shutdown();
  });

  it('acquires, renews while the section runs, and releases after', async () => {
    const b = await fakeBroker();
    opened.push(b);
    const out = await b.conn.runExclusive(async (lost) => {
      while (!b.calls.includes('renew')) await new Promise((r) => setTimeout(r, 5));
      return lost.aborted;
    });
    expect(out).toBe(false);
    expect(b.calls[0]).toBe('acquire');
    expect(b.calls.at(-1)).toBe('release');
  });

  it('aborts the section when a renewal is refused', async () => {
    const b = await fakeBroker({ renew: () => new ResponseError(ErrorCodes.InternalError, 'lease L is not held by this client (it may have expired)') });
    opened.push(b);
    const seen = await sectionUntilLost(b.conn);
    expect(seen.aborted).toBe(true);
    expect(seen.reason).toBeInstanceOf(LeaseLostError);
    expect(String((seen.reason as Error).message)).toMatch(/renewing it failed: lease L is not held/);
    // A lost lease is not released again.
    expect(b.calls).not.toContain('release');
  });

  it('aborts the section when the lease expires before a renewal lands', async () => {
    const b = await fakeBroker({ acquire: () => ({ leaseId: 'L', expiresAt: Date.now() + 30 }), renew: () => new Promise(() => undefined) });
    opened.push(b);
    const seen = await sectionUntilLost(b.conn);
    expect(seen.aborted).toBe(true);
    expect(String((seen.reason as Error).message)).toMatch(/expired/);
  });

  it('aborts the section when the broker goes away', async () => {
    const b = await fakeBroker({ renew: () => new Promise(() => undefined) });
    opened.push(b);
    let enter: () => void = () => undefined;
    const entered = new Promise<void>((r) => (enter = r));
    const section = sectionUntilLost(b.conn, 5000, enter);
    await entered;
    b.link.disconnect('broker killed');
    const seen = await section;
    expect(seen.aborted).toBe(true);
    expect(String((seen.reason as Error).message)).toMatch(/the broker went away/);
  });

  it('marks the section lost when the release is refused (the lease had ended already)', async () => {
    const b = await fakeBroker({ release: () => new ResponseError(ErrorCodes.InternalError, 'lease L is not held by this client') });
    opened.push(b);
    let signal: AbortSignal | undefined;
    await b.conn.runExclusive((lost) => {
      signal = lost;
      return Promise.resolve();
    });
    expect(signal?.aborted).toBe(true);
    expect(String((signal?.reason as Error).message)).toMatch(/releasing it failed/);
  });

  it('refuses with a clear error when the broker has no exclusive sections (an older broker)', async () => {
    const b = await fakeBroker({ acquire: () => new ResponseError(ErrorCodes.MethodNotFound, 'Unhandled method $/agentLsp/acquire') });
    opened.push(b);
    const run = b.conn.runExclusive(() => Promise.resolve('ran'));
    await expect(run).rejects.toBeInstanceOf(UserError);
    await expect(run).rejects.toThrow(/older broker: stop it with `agent-lsp daemon-stop --all`/);
  });
});
