import { absolutePath, outputLines, type ParseContext, type ParsedFailure } from './failure.js';

// ● ❯ ⎯ are written \u25CF \u276F \u23AF: a non-ASCII character in the bundle doubles the memory
// its source takes in every process (see nodeTest.ts).

/** vitest: ` FAIL  src/a.test.ts > suite > test` (jest: ` FAIL  src/a.test.js`, then `● suite › test`). */
const VITEST_HEADER = /^ ?FAIL {1,2}(\S.*?) > (.+)$/;
const JEST_FILE = /^ ?FAIL {1,2}(\S+)\s*$/;
const JEST_TEST = /^ {2}\u25CF (.+)$/;
/** vitest's frame marker: ` ❯ src/a.test.ts:9:23` or ` ❯ fn src/a.ts:3:5`. */
const VITEST_FRAME = /\u276F (?:\S+ )?(\S+?):(\d+):(\d+)\s*$/;
/** A V8 stack frame: `at fn (file:line:col)` or `at file:line:col`. */
const STACK_FRAME = /^\s*at (?:.*? \()?(\S+?):(\d+):(\d+)\)?\s*$/;
/** vitest's separator between failures: `⎯⎯⎯⎯[1/2]⎯`. */
const SEPARATOR = /^\u23AF{3,}/;

interface Block {
  test: string;
  file: string;
  lines: string[];
}

/**
 * vitest and jest default reporters. Each failure block names the test and its file; the location
 * is the first frame in that file (the test's own line), else the first frame at all.
 */
export function parseJsTest(output: string, ctx: ParseContext): ParsedFailure[] {
  const lines = outputLines(output);
  const blocks: Block[] = [];
  let block: Block | undefined;
  let jestFile: string | undefined;
  for (const line of lines) {
    const v = VITEST_HEADER.exec(line);
    if (v?.[1] && v[2]) {
      block = { file: v[1], test: `${v[1]} > ${v[2]}`, lines: [] };
      blocks.push(block);
      continue;
    }
    const jf = JEST_FILE.exec(line);
    if (jf?.[1]) {
      jestFile = jf[1];
      block = undefined;
      continue;
    }
    const jt = JEST_TEST.exec(line);
    if (jt?.[1] && jestFile) {
      block = { file: jestFile, test: `${jestFile} > ${jt[1].replaceAll(' › ', ' > ')}`, lines: [] };
      blocks.push(block);
      continue;
    }
    if (SEPARATOR.test(line.trim()) || /^ ?(PASS|Test Files|Tests:|Test Suites:)/.test(line)) {
      block = undefined;
      continue;
    }
    block?.lines.push(line);
  }
  return blocks.map((b) => toFailure(b, ctx.cwd));
}

function toFailure(block: Block, cwd: string): ParsedFailure {
  const testFile = absolutePath(block.file, cwd);
  const frames = block.lines.flatMap((l) => {
    const m = VITEST_FRAME.exec(l) ?? STACK_FRAME.exec(l);
    return m?.[1] && m[2] && m[3] && !m[1].startsWith('node:') && !m[1].includes('/node_modules/')
      ? [{ file: absolutePath(m[1], cwd), line: Number(m[2]), column: Number(m[3]) }]
      : [];
  });
  const frame = frames.find((f) => f.file === testFile) ?? frames[0];
  const message = block.lines.map((l) => l.trim()).find((l) => l !== '') ?? 'failed';
  return { test_id: block.test, message, file: frame?.file ?? testFile, ...(frame ? { line: frame.line, column: frame.column } : {}) };
}
