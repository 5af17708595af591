import { isWithin } from '@agent-lsp/protocol';
import { outputLines, type ParseContext, type ParsedFailure } from './failure.js';

const DOUBLE_RULE = /^={40,}$/;
const SINGLE_RULE = /^-{40,}$/;
const HEADER = /^(FAIL|ERROR|UNEXPECTED SUCCESS): (\S+) \(([^)]+)\)(.*)$/;
const FRAME = /^ {2}File "(.+)", line (\d+), in (\S+)$/;

/**
 * `python -m unittest`: blocks between `=====` rules, each a `FAIL: name (id)` header and a
 * traceback. The location is the test method's frame, else the last frame inside the workspace.
 */
export function parseUnittest(output: string, ctx: ParseContext): ParsedFailure[] {
  const lines = outputLines(output);
  const failures: ParsedFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!DOUBLE_RULE.test(lines[i] ?? '')) continue;
    const head = HEADER.exec(lines[i + 1] ?? '');
    if (!head?.[2] || !head[3]) continue;
    const [, kind, name, inParens, rest] = head;
    const body: string[] = [];
    let j = i + 2;
    if (SINGLE_RULE.test(lines[j] ?? '')) j++;
    for (; j < lines.length && !DOUBLE_RULE.test(lines[j] ?? '') && !SINGLE_RULE.test(lines[j] ?? ''); j++) body.push(lines[j] ?? '');
    i = j - 1;
    const frames = body.flatMap((l) => {
      const f = FRAME.exec(l);
      return f?.[1] && f[2] && f[3] ? [{ file: f[1], line: Number(f[2]), fn: f[3] }] : [];
    });
    const ours = frames.filter((f) => isWithin(ctx.cwd, f.file) && !f.file.includes('/site-packages/'));
    const frame = ours.find((f) => f.fn === name) ?? ours.at(-1) ?? frames.at(-1);
    const id = inParens.endsWith(`.${name}`) ? inParens : `${inParens}.${name}`;
    const message = body.map((l) => l.trimEnd()).filter((l) => l.trim() !== '').at(-1) ?? kind ?? 'failed';
    failures.push({
      test_id: `${id}${rest?.trim() ? ` ${rest.trim()}` : ''}`,
      message,
      ...(frame ? { file: frame.file, line: frame.line } : {}),
    });
  }
  return failures;
}
