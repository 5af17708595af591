import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';
import { spawnServerProcess } from './serverProcess.js';

describe('spawnServerProcess', () => {
  it('lets go of the pipes when it ends a server whose helper left its process group holding them (gopls telemetry)', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'debug', sink: (line) => lines.push(line) });
    // The helper runs in a session of its own, with the server's stdout and stderr, for 60 s.
    const transport = await spawnServerProcess({ command: ['sh', '-c', 'setsid sleep 60 & echo "helper $!" >&2; exec cat'], cwd: '/', logger });
    const helperPid = await new Promise<number>((resolve) => {
      const poll = setInterval(() => {
        const found = lines.map((l) => /helper (\d+)/.exec(l)?.[1]).find(Boolean);
        if (found) {
          clearInterval(poll);
          resolve(Number(found));
        }
      }, 10);
    });
    try {
      await transport.terminate(500);
      // The helper still runs (it is not in the group) and holds the pipes' other ends; ours are closed,
      // so nothing keeps this process's event loop waiting on them.
      expect(() => process.kill(helperPid, 0)).not.toThrow();
      expect(transport.input.destroyed).toBe(true);
      expect(transport.output.destroyed).toBe(true);
    } finally {
      process.kill(helperPid, 'SIGKILL');
    }
  });
});
