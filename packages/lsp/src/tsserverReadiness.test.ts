import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DisposableStore } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { ProgressTracker } from './progress.js';
import { Readiness } from './readiness.js';
import { vtslsReadiness } from './tsserverReadiness.js';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** The parts of a connection the family reads, with the seed's documentSymbol answered when the test says. */
function seedBench() {
  const rootDir = mkdtempSync(join(tmpdir(), 'agent-lsp-tsready-'));
  writeFileSync(join(rootDir, 'shapes.ts'), 'export const x = 1;\n');
  let answerSeed: () => void = () => undefined;
  const conn = {
    rootDir,
    isAlive: true,
    readiness: new Readiness(),
    progress: new ProgressTracker(),
    logger: silent,
    server: { extensions: { '.ts': 'typescript' }, languageIds: ['typescript'] },
    documents: { sync: () => undefined },
    request: () => new Promise<void>((resolve) => (answerSeed = resolve)),
  };
  const store = new DisposableStore();
  vtslsReadiness({ conn: conn as unknown as LspConnection, store, later: () => undefined, signalComing: () => undefined });
  const progress = (token: string, value: { kind: 'begin'; title: string } | { kind: 'end' }) => conn.progress.handle(token, value);
  return { conn, progress, answerSeed: async () => { answerSeed(); await new Promise((r) => setImmediate(r)); }, dispose: () => { store.dispose(); rmSync(rootDir, { recursive: true, force: true }); } };
}

describe('vtsls readiness: the seed project', () => {
  let bench: ReturnType<typeof seedBench> | undefined;
  afterEach(() => bench?.dispose());

  it("is ready once the seed is answered and its project's load has ended, whatever a request's own progress does", async () => {
    bench = seedBench();
    // As vtsls did after a restart with documents open: a request's analysis begins, the project
    // load begins and ends, the seed is answered while the analysis still runs.
    bench.progress('a', { kind: 'begin', title: "Analyzing 'App.vue' and its dependencies" });
    bench.progress('i', { kind: 'begin', title: "Initializing 'tsconfig.json'" });
    expect(bench.conn.readiness.state).toBe('indexing');
    bench.progress('i', { kind: 'end' });
    await bench.answerSeed();
    // Before: still "indexing" here, and for good once the analysis's end came (it was not a load).
    expect(bench.conn.readiness.state).toBe('ready');
    bench.progress('a', { kind: 'end' });
    expect(bench.conn.readiness.state).toBe('ready');
  });

  it('waits for a load still running when the seed is answered, and is ready at its end', async () => {
    bench = seedBench();
    bench.progress('i', { kind: 'begin', title: "Initializing 'tsconfig.json'" });
    await bench.answerSeed();
    expect(bench.conn.readiness.state).toBe('indexing');
    bench.progress('i', { kind: 'end' });
    expect(bench.conn.readiness.state).toBe('ready');
  });
});
