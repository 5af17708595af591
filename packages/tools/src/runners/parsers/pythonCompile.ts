import { absolutePath, outputLines, type ParseContext, type ParsedFailure } from './failure.js';

const COMPILING = /^\*\*\* Error compiling '(.+)'\.\.\.$/;
const FRAME = /^ {2}File "(.+)", line (\d+)$/;
/** Python 3.11 prints some errors of compileall on one line: `Sorry: IndentationError: … (top.py, line 2)`. */
const SORRY = /^Sorry: (.*) \((.+), line (\d+)\)$/;
const ERROR_LINE = /^(\w+(?:Error|Warning)): (.*)$/;

/** `python -m compileall` (run_build for Python): each file that does not compile, with the line. */
export function parsePythonCompile(output: string, ctx: ParseContext): ParsedFailure[] {
  const failures: ParsedFailure[] = [];
  let file: string | undefined;
  let current: ParsedFailure | undefined;
  for (const line of outputLines(output)) {
    const compiling = COMPILING.exec(line);
    if (compiling?.[1]) {
      file = absolutePath(compiling[1], ctx.cwd);
      current = { file, severity: 'error', message: 'does not compile' };
      failures.push(current);
      continue;
    }
    if (!current) continue;
    const frame = FRAME.exec(line);
    if (frame?.[1] && frame[2]) {
      current.file = absolutePath(frame[1], ctx.cwd);
      current.line = Number(frame[2]);
      continue;
    }
    const sorry = SORRY.exec(line);
    if (sorry?.[1] && sorry[3]) {
      current.message = sorry[1];
      current.line = Number(sorry[3]);
      continue;
    }
    const error = ERROR_LINE.exec(line);
    if (error) current.message = line;
  }
  return failures;
}
