import { describe, expect, it } from 'vitest';
import { createLogger, type LogEntry, type LogLevel } from './logger.js';

describe('logger taps', () => {
  it('give a tap the entries at its own level, from every child, while the sink keeps its level', () => {
    const lines: string[] = [];
    const seen: LogEntry[] = [];
    let tapLevel: LogLevel | undefined = 'debug';
    const root = createLogger({ level: 'warn', scope: 'front', sink: (l) => lines.push(l) });
    const child = root.child('find_references');
    const tap = root.tap?.({ level: () => tapLevel, write: (e) => seen.push(e) });
    child.debug('called');
    root.error('broken');
    expect(seen).toEqual([
      { level: 'debug', scope: 'front/find_references', message: 'called' },
      { level: 'error', scope: 'front', message: 'broken' },
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('error [front] broken');

    tapLevel = 'error';
    child.info('quiet');
    tapLevel = undefined;
    child.error('also quiet');
    expect(seen).toHaveLength(2);

    tapLevel = 'debug';
    tap?.dispose();
    child.error('after dispose');
    expect(seen).toHaveLength(2);
  });

  it('keeps what a tap logs while writing out of the taps (no recursion)', () => {
    const seen: string[] = [];
    const root = createLogger({ level: 'error', sink: () => undefined });
    root.tap?.({ level: () => 'debug', write: (e) => { seen.push(e.message); root.debug('from the tap'); } });
    root.info('one');
    expect(seen).toEqual(['one']);
  });
});
