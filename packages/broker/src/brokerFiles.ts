import { rmSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import type { Logger } from '@agent-lsp/lsp';
import { LOCK_STALE_MS, lockTarget } from './brokerOptions.js';

/** The files a broker owns in its directory: its lifetime lock, and what it removes when it stops. */

/**
 * Takes the broker's lifetime lock on `dir` (one broker per directory); undefined when another
 * broker holds it. `compromised` is called when the lock is lost while held (the broker stops).
 */
export async function takeLifetimeLock(dir: string, logger: Logger, compromised: () => void): Promise<(() => Promise<void>) | undefined> {
  try {
    return await lockfile.lock(lockTarget(dir, 'lifetime'), {
      realpath: false,
      stale: LOCK_STALE_MS,
      update: LOCK_STALE_MS / 2,
      // A dead broker's lock turns stale after LOCK_STALE_MS; wait that out rather than give up.
      retries: { retries: 40, minTimeout: 250, maxTimeout: 500 },
      onCompromised: (err) => {
        logger.error(`lifetime lock compromised (${err.message}); stopping`);
        compromised();
      },
    });
  } catch (err) {
    logger.info(`another broker holds ${dir} (${(err as Error).message}); exiting`);
    return undefined;
  }
}

/** Removes what a stopping broker leaves (daemon.json, its socket); a failure is logged, not thrown. */
export function removeBrokerFiles(paths: readonly string[], logger: Logger): void {
  for (const path of paths) {
    try {
      rmSync(path, { force: true });
    } catch (err) {
      logger.warn(`could not remove ${path}: ${(err as Error).message}`);
    }
  }
}
