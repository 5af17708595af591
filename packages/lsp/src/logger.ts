/**
 * Logging for processes whose stdout is a protocol: everything goes to stderr (or a sink the
 * owner provides, such as a broker's log file). The entry point picks the level (`AGENT_LSP_LOG`).
 * Taps (the MCP front's `notifications/message`) see entries at their own level as well.
 */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

const ORDER: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

/** One log entry as a tap receives it. */
export interface LogEntry {
  level: LogLevel;
  scope: string | undefined;
  message: string;
}

/** A second destination for log entries, with a level of its own that may change at any time. */
export interface LogTap {
  /** The least severe level this tap wants now; undefined: none. */
  level(): LogLevel | undefined;
  write(entry: LogEntry): void;
}

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  child(scope: string): Logger;
  /** Adds a tap for this logger and all its children (those made before too); returns its removal. */
  tap?(tap: LogTap): { dispose(): void };
}

/** A level named by the user (`AGENT_LSP_LOG`), if it is one. */
export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  return value !== undefined && value in ORDER ? (value as LogLevel) : undefined;
}

/** Whether an entry at `at` passes a threshold of `threshold`. */
export function logLevelPasses(at: LogLevel, threshold: LogLevel): boolean {
  return ORDER[at] <= ORDER[threshold];
}

export function createLogger(
  options: { level?: LogLevel; scope?: string; sink?: (line: string) => void } = {},
): Logger {
  const level: LogLevel = options.level ?? 'warn';
  const sink = options.sink ?? ((line: string) => process.stderr.write(line + '\n'));
  const taps = new Set<LogTap>();
  let writingTaps = false;
  const make = (scope: string | undefined): Logger => {
    const log = (at: LogLevel, message: string) => {
      if (ORDER[at] <= ORDER[level]) sink(`[${new Date().toISOString()}] ${at}${scope ? ` [${scope}]` : ''} ${message}`);
      // A tap that logs while writing would recurse: its own entries stay out of the taps.
      if (taps.size === 0 || writingTaps) return;
      writingTaps = true;
      try {
        for (const tap of taps) {
          const threshold = tap.level();
          if (threshold !== undefined && ORDER[at] <= ORDER[threshold]) tap.write({ level: at, scope, message });
        }
      } finally {
        writingTaps = false;
      }
    };
    return {
      error: (m) => log('error', m),
      warn: (m) => log('warn', m),
      info: (m) => log('info', m),
      debug: (m) => log('debug', m),
      child: (s) => make(scope ? `${scope}/${s}` : s),
      tap(tap) {
        taps.add(tap);
        return { dispose: () => void taps.delete(tap) };
      },
    };
  };
  return make(options.scope);
}
