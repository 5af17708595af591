import { copyFileSync, fstatSync, ftruncateSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** broker.log is rotated at this size, to one `broker.log.1`. */
export const MAX_BROKER_LOG_BYTES = 10 * 1024 * 1024;

export function brokerLogPath(dir: string): string {
  return join(dir, 'broker.log');
}

/** Before a broker is spawned into it: a log past the limit moves to `broker.log.1`. */
export function rotateBrokerLog(path: string, maxBytes = MAX_BROKER_LOG_BYTES): void {
  try {
    if (statSync(path).size >= maxBytes) renameSync(path, `${path}.1`);
  } catch {
    // No log yet, or it cannot be moved: the broker appends to it as before.
  }
}

export interface RotatingSinkOptions {
  /** The log file the broker's stderr was pointed at (spawnBroker opens it for appending). */
  path: string;
  maxBytes?: number;
  /** The descriptor that writes into `path`: stderr, unless a test says otherwise. */
  fd?: number;
  write?: (text: string) => void;
}

/**
 * A logger sink for the broker: lines go to stderr, which spawnBroker points at broker.log. When
 * that file has grown past the limit its content is copied to `broker.log.1` and the file is
 * truncated in place. Renaming it instead would leave stderr, stdout and anything else holding the
 * descriptor writing into the renamed file; the descriptor is opened for appending, so after the
 * truncation every writer continues at the new end. When stderr is not that file (a terminal, a
 * test's pipe) nothing is rotated.
 */
export function rotatingLogSink(options: RotatingSinkOptions): (line: string) => void {
  const { path, maxBytes = MAX_BROKER_LOG_BYTES, fd = 2 } = options;
  const write = options.write ?? ((text: string) => void process.stderr.write(text));
  // BigInt stats on purpose: on Node 20 a plain fstatSync of a pipe (a test's stderr) leaves the
  // shared stat buffer so that the next require.resolve returns a symlinked path unresolved, and
  // the typescript profile (so the broker key) came out different from the front's.
  const size = (): number | undefined => {
    try {
      const st = fstatSync(fd, { bigint: true });
      const file = statSync(path, { bigint: true });
      return st.isFile() && st.ino === file.ino && st.dev === file.dev ? Number(st.size) : undefined;
    } catch {
      return undefined;
    }
  };
  const ours = size() !== undefined;
  // Bytes written since the size was last looked at: the file is stat'ed only when this passes the limit.
  let estimate = size() ?? 0;
  return (line) => {
    const text = `${line}\n`;
    write(text);
    if (!ours) return;
    estimate += Buffer.byteLength(text);
    if (estimate < maxBytes) return;
    const now = size();
    if (now === undefined) return;
    estimate = now;
    if (now < maxBytes) return;
    try {
      copyFileSync(path, `${path}.1`);
      ftruncateSync(fd, 0);
      estimate = 0;
    } catch {
      // Out of space or permissions: keep logging into the one file rather than lose lines.
    }
  };
}
