import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { isBrokerProcess } from './processInfo.js';

describe('isBrokerProcess', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGKILL');
    child = undefined;
  });

  it('recognises a broker by its command line and key, and nothing else', async () => {
    // A stand-in with a broker's command line: node ignores the arguments after the script.
    child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', 'daemon-broker', '--key', '0123456789abcdef'], { stdio: 'ignore' });
    const pid = child.pid as number;
    await new Promise((r) => setTimeout(r, 200));
    expect(await isBrokerProcess(pid, '0123456789abcdef')).toBe(true);
    expect(await isBrokerProcess(pid, 'fedcba9876543210')).toBe(false);
    expect(await isBrokerProcess(process.pid, '0123456789abcdef')).toBe(false);
    child.kill('SIGKILL');
    await new Promise((r) => child?.once('exit', r));
    expect(await isBrokerProcess(pid, '0123456789abcdef')).toBe(false);
  });
});
