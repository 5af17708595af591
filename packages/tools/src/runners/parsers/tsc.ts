import { absolutePath, outputLines, type ParseContext, type ParsedFailure } from './failure.js';

/** `src/a.ts(2,9): error TS2322: …` (plain) and `src/a.ts:2:9 - error TS2322: …` (--pretty). */
const PLAIN = /^(\S.*?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/;
const PRETTY = /^(\S.*?):(\d+):(\d+) - (error|warning) (TS\d+): (.*)$/;

/** tsc diagnostics; a plain diagnostic's indented continuation lines (its elaboration) join its message. */
export function parseTsc(output: string, ctx: ParseContext): ParsedFailure[] {
  const failures: ParsedFailure[] = [];
  let last: ParsedFailure | undefined;
  for (const line of outputLines(output)) {
    const m = PLAIN.exec(line) ?? PRETTY.exec(line);
    if (m?.[1] && m[2] && m[3] && m[5]) {
      last = {
        file: absolutePath(m[1], ctx.cwd),
        line: Number(m[2]),
        column: Number(m[3]),
        severity: m[4] === 'warning' ? 'warning' : 'error',
        message: `${m[5]}: ${m[6] ?? ''}`,
      };
      failures.push(last);
      continue;
    }
    if (last && PLAIN_CONTINUATION.test(line)) last.message += `\n${line.trim()}`;
    else last = undefined;
  }
  return failures;
}

const PLAIN_CONTINUATION = /^ {2}\S/;
