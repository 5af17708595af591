import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { Readiness, type LspConnection, type Logger } from '@agent-lsp/lsp';
import { Prefetcher } from '../../packages/workspace/src/prefetch/prefetcher.js';

/**
 * The part of a connection the prefetcher uses, answering from a table: enough to check what is
 * sent, joined, cancelled and served (the real servers are exercised in test/prefetch).
 */
export class TableConnection {
  /** The server's profile, as far as the prefetcher reads it. */
  server: { uncancellable?: string[] } = {};
  changeEpoch = 0;
  /** Ready unless a test says otherwise. */
  readonly readiness = new Readiness();
  pid = 42;
  isAlive = true;
  readonly sent: { method: string; params: unknown; signal?: AbortSignal | undefined }[] = [];
  readonly docs = new Map<string, { version: number; internal: boolean; disk: object | undefined; text?: string }>();
  private crash: (() => void) | undefined;
  /** Requests wait for this before answering (set to hold them). */
  gate: Promise<void> = Promise.resolve();
  /** Requests of these methods wait for their promise. */
  readonly hold = new Map<string, Promise<void>>();
  answer: (method: string, params: unknown) => unknown = (method, params) => ({ method, params, epoch: this.changeEpoch });

  constructor() {
    this.readiness.ready();
  }

  readonly documents = { get: (uri: string) => this.docs.get(uri), uris: () => [...this.docs].filter(([, d]) => !d.internal).map(([u]) => u) };
  supports(): boolean {
    return true;
  }
  supportsPullDiagnostics(): boolean {
    return true;
  }
  onCrash(fn: () => void) {
    this.crash = fn;
    return { dispose: () => undefined };
  }
  private refresh: (() => void) | undefined;
  onDiagnosticsRefresh(fn: () => void) {
    this.refresh = fn;
    return { dispose: () => undefined };
  }
  refreshNow(): void {
    this.refresh?.();
  }
  crashNow(): void {
    this.isAlive = false;
    this.crash?.();
  }
  async request(method: string, params: unknown, options: { signal?: AbortSignal } = {}): Promise<unknown> {
    this.sent.push({ method, params, signal: options.signal });
    const answer = this.answer(method, params);
    await this.gate;
    await this.hold.get(method);
    if (options.signal?.aborted) throw new Error('cancelled');
    if (answer instanceof Error) throw answer;
    return answer;
  }
  /** Holds the requests of `method` until the returned function is called. */
  holdMethod(method: string): () => void {
    let release!: () => void;
    this.hold.set(method, new Promise<void>((r) => (release = r)));
    return release;
  }
  open(uri: string, internal = false): void {
    this.docs.set(uri, { version: 1, internal, disk: {} });
  }
}

export const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => logger } as unknown as Logger;
export const signal = new AbortController().signal;
export const A = 'file:///w/a.py';
export const B = 'file:///w/b.py';
export const at = (uri: string, line: number) => ({ textDocument: { uri }, position: { line, character: 4 } });
export const definitionTo = (uri: string, line: number) => [{ uri, range: { start: { line, character: 4 }, end: { line, character: 8 } } }];

/** Waits (polling) until `pred` holds: speculations reach the connection after a disk flush. */
export async function until(pred: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !pred(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!pred()) throw new Error('condition never held');
}

export async function idle(p: Prefetcher): Promise<void> {
  for (let i = 0; i < 200 && p.snapshot().in_flight > 0; i++) await new Promise((r) => setTimeout(r, 5));
}

/** One unit test's prefetcher on a TableConnection holding A and B open, with a temporary root. */
export interface PrefetchBench {
  root: string;
  conn: TableConnection;
  prefetch: Prefetcher;
}

export function prefetchBench(): PrefetchBench {
  const root = mkdtempSync(join(tmpdir(), 'prefetch-unit-'));
  const conn = new TableConnection();
  conn.open(A);
  conn.open(B);
  conn.answer = (method, params) => (method === 'textDocument/definition' ? definitionTo(B, 7) : { method, params, epoch: conn.changeEpoch });
  const prefetch = new Prefetcher({ enabled: true, logger, shared: (fn) => fn(), directWatching: () => true });
  prefetch.watch(root);
  return { root, conn, prefetch };
}

export function disposeBench(bench: PrefetchBench): void {
  bench.prefetch.dispose();
  rmSync(bench.root, { recursive: true, force: true });
}

/** What a test of the calling describe uses: its own bench, made before it and disposed after it. */
export interface UsedPrefetchBench extends PrefetchBench {
  /** An agent's query through the test's prefetcher. */
  query: (method: string, params: unknown, s?: AbortSignal) => Promise<unknown>;
}

/** Registers a fresh bench around every test of the calling describe; its fields are that test's. */
export function usePrefetchBench(): UsedPrefetchBench {
  let bench: PrefetchBench | undefined;
  beforeEach(() => {
    bench = prefetchBench();
  });
  afterEach(() => {
    if (bench) disposeBench(bench);
    bench = undefined;
  });
  const current = (): PrefetchBench => {
    if (!bench) throw new Error('usePrefetchBench: a bench exists only while a test runs');
    return bench;
  };
  return {
    get root() {
      return current().root;
    },
    get conn() {
      return current().conn;
    },
    get prefetch() {
      return current().prefetch;
    },
    query: (method, params, s = signal) => current().prefetch.request<unknown>(current().conn as unknown as LspConnection, method, params, s),
  };
}
