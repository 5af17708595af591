import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rotateBrokerLog, rotatingLogSink } from './brokerLog.js';

describe('broker.log rotation', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-log-'));
    path = join(dir, 'broker.log');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the log under its limit plus one line, the older lines in broker.log.1, while the descriptor stays in use', () => {
    // As spawnBroker sets it up: the broker's stderr (and stdout) append to broker.log.
    const fd = openSync(path, 'a', 0o600);
    try {
      const sink = rotatingLogSink({ path, fd, maxBytes: 1000, write: (text) => writeSync(fd, text) });
      for (let i = 0; i < 500; i++) {
        sink(`line ${i} ${'x'.repeat(40)}`);
        expect(statSync(path).size).toBeLessThan(1000 + 60);
      }
      // Something else writing through the same descriptor (an uncaught error's trace) lands in the live file.
      writeSync(fd, 'stray\n');
      const live = readFileSync(path, 'utf8');
      const old = readFileSync(`${path}.1`, 'utf8');
      expect(live).toContain('line 499 ');
      expect(live.endsWith('stray\n')).toBe(true);
      expect(live.startsWith('\0')).toBe(false);
      expect(old).toMatch(/^line \d+ /);
      const firstLive = Number(/^line (\d+) /.exec(live)?.[1]);
      const lastOld = Number([...old.matchAll(/^line (\d+) /gm)].at(-1)?.[1]);
      expect(firstLive).toBe(lastOld + 1);
    } finally {
      closeSync(fd);
    }
  });

  it('leaves a descriptor that is not the log file alone', () => {
    writeFileSync(path, 'x'.repeat(5000));
    const other = join(dir, 'other.log');
    const fd = openSync(other, 'a');
    try {
      const sink = rotatingLogSink({ path, fd, maxBytes: 1000, write: (text) => writeSync(fd, text) });
      for (let i = 0; i < 100; i++) sink(`line ${i} ${'x'.repeat(40)}`);
      expect(existsSync(`${path}.1`)).toBe(false);
      expect(statSync(other).size).toBeGreaterThan(1000);
    } finally {
      closeSync(fd);
    }
  });

  it('moves a log past the limit aside before a broker is spawned into it', () => {
    writeFileSync(path, 'x'.repeat(2000));
    rotateBrokerLog(path, 1000);
    expect(existsSync(path)).toBe(false);
    expect(statSync(`${path}.1`).size).toBe(2000);
    writeFileSync(path, 'small');
    rotateBrokerLog(path, 1000);
    expect(readFileSync(path, 'utf8')).toBe('small');
  });
});
