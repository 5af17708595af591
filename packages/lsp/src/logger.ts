/**
 * Logging for processes whose stdout is a protocol: everything goes to stderr (or a sink the
 * owner provides, such as a broker's log file). The entry point picks the level (`AGENT_LSP_LOG`).
 */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

const ORDER: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  child(scope: string): Logger;
}

/** A level named by the user (`AGENT_LSP_LOG`), if it is one. */
export function parseLogLevel(value: string | undefined): LogLevel | undefined {
  return value !== undefined && value in ORDER ? (value as LogLevel) : undefined;
}

export function createLogger(
  options: { level?: LogLevel; scope?: string; sink?: (line: string) => void } = {},
): Logger {
  const level: LogLevel = options.level ?? 'warn';
  const sink = options.sink ?? ((line: string) => process.stderr.write(line + '\n'));
  const make = (scope: string | undefined): Logger => {
    const log = (at: LogLevel, message: string) => {
      if (ORDER[at] > ORDER[level]) return;
      sink(`[${new Date().toISOString()}] ${at}${scope ? ` [${scope}]` : ''} ${message}`);
    };
    return {
      error: (m) => log('error', m),
      warn: (m) => log('warn', m),
      info: (m) => log('info', m),
      debug: (m) => log('debug', m),
      child: (s) => make(scope ? `${scope}/${s}` : s),
    };
  };
  return make(options.scope);
}
