import { describe, expect, it } from 'vitest';
import { pidAlive } from '@agent-lsp/broker';
import { liveGroupMembers, runProcessGroup } from './processGroup.js';

function run(script: string, timeoutMs = 60_000, signal = new AbortController().signal) {
  const lines: string[] = [];
  const done = runProcessGroup({ argv: ['sh', '-c', script], cwd: process.cwd(), env: process.env, timeoutMs, signal, onLine: (l) => lines.push(l) });
  return { lines, done };
}

describe('runProcessGroup', () => {
  it('reports the exit code and every line of stdout and stderr', async () => {
    const { lines, done } = run('echo out; echo err >&2; exit 3');
    const outcome = await done;
    expect(outcome.exitCode).toBe(3);
    expect(outcome.timedOut).toBe(false);
    expect(lines.sort()).toEqual(['err', 'out']);
  });

  it('kills the whole group at the timeout: the runner and what it started', async () => {
    const { lines, done } = run('sleep 300 & echo $!; sleep 300', 300);
    const outcome = await done;
    expect(outcome.timedOut).toBe(true);
    const background = Number(lines[0]);
    expect(background).toBeGreaterThan(0);
    expect(pidAlive(background)).toBe(false);
    expect(liveGroupMembers(outcome.pid ?? -1)).toEqual([]);
  });

  it('kills what a runner left behind when it exits by itself', async () => {
    const { lines, done } = run('sleep 300 & echo $!; exit 0');
    const outcome = await done;
    expect(outcome.exitCode).toBe(0);
    expect(pidAlive(Number(lines[0]))).toBe(false);
    expect(liveGroupMembers(outcome.pid ?? -1)).toEqual([]);
  });

  it('kills the group when the call is cancelled', async () => {
    const abort = new AbortController();
    const { lines, done } = run('echo started; sleep 300', 60_000, abort.signal);
    while (lines.length === 0) await new Promise((r) => setTimeout(r, 20));
    abort.abort();
    const outcome = await done;
    expect(outcome.cancelled).toBe(true);
    expect(liveGroupMembers(outcome.pid ?? -1)).toEqual([]);
  });

  it('says when the command cannot be started', async () => {
    const outcome = await runProcessGroup({ argv: ['/nonexistent/runner'], cwd: process.cwd(), env: process.env, timeoutMs: 10_000, signal: new AbortController().signal, onLine: () => undefined });
    expect(outcome.spawnError).toMatch(/ENOENT/);
  });
});
