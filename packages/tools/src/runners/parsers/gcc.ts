import { absolutePath, outputLines, type ParseContext, type ParsedFailure } from './failure.js';

const WITH_COLUMN = /^(\S.*?):(\d+):(\d+): (fatal error|error|warning): (.*)$/;
const WITHOUT_COLUMN = /^(\S.*?):(\d+): (fatal error|error|warning): (.*)$/;
/** A linker error names an object section, not a source line: kept as a message. */
const LINKER = /^\S.*?:\(\S+\): (undefined reference to .*|multiple definition of .*)$/;
const ENTERING = /^\S*make(?:\[\d+\])?: Entering directory ['`](.+)'$/;
const LEAVING = /^\S*make(?:\[\d+\])?: Leaving directory ['`](.+)'$/;

/** gcc and clang diagnostics (also through make and cmake, whose `Entering directory` moves the base of relative paths). */
export function parseGcc(output: string, ctx: ParseContext): ParsedFailure[] {
  const failures: ParsedFailure[] = [];
  const dirs = [ctx.cwd];
  for (const line of outputLines(output)) {
    const enter = ENTERING.exec(line);
    if (enter?.[1]) {
      dirs.push(enter[1]);
      continue;
    }
    if (LEAVING.test(line)) {
      if (dirs.length > 1) dirs.pop();
      continue;
    }
    const base = dirs.at(-1) ?? ctx.cwd;
    const m = WITH_COLUMN.exec(line);
    if (m?.[1] && m[2] && m[3] && m[4]) {
      failures.push({ file: absolutePath(m[1], base), line: Number(m[2]), column: Number(m[3]), severity: m[4] === 'warning' ? 'warning' : 'error', message: m[5] ?? '' });
      continue;
    }
    const n = WITHOUT_COLUMN.exec(line);
    if (n?.[1] && n[2] && n[3]) {
      failures.push({ file: absolutePath(n[1], base), line: Number(n[2]), severity: n[3] === 'warning' ? 'warning' : 'error', message: n[4] ?? '' });
      continue;
    }
    const link = LINKER.exec(line);
    if (link?.[1]) failures.push({ severity: 'error', message: link[1] });
  }
  return failures;
}
