import { absolutePath, outputLines, type ParseContext, type ParsedFailure } from './failure.js';

const BLOCK = /^=+ (FAILURES|ERRORS) =+$/;
const SUMMARY_RULE = /^=+ short test summary info =+$/;
const RULE = /^=+ .* =+$/;
const SECTION = /^_{3,} (.+?) _{3,}$/;
const FRAME = /^(\S.*?):(\d+): in (\S+)$/;
const SUMMARY = /^(FAILED|ERROR) (.+?)(?: - (.*))?$/;
const ROOTDIR = /^rootdir: (.+?)(?:, .*)?$/;

interface Section {
  name: string;
  frames: { file: string; line: number; fn: string }[];
  errors: string[];
}

/**
 * pytest with `--tb=short -rfE`: each failure's section under FAILURES/ERRORS gives the frames and
 * the `E` lines; the short summary gives the node id. The location is the test function's own
 * frame (where its assertion failed), not the deepest one.
 */
export function parsePytest(output: string, ctx: ParseContext): ParsedFailure[] {
  const lines = outputLines(output);
  let rootdir = ctx.cwd;
  const sections: Section[] = [];
  const summary: { kind: string; id: string; message?: string }[] = [];
  let inBlock = false;
  let inSummary = false;
  let current: Section | undefined;
  for (const line of lines) {
    const root = ROOTDIR.exec(line);
    if (root?.[1]) rootdir = root[1];
    if (BLOCK.test(line)) {
      inBlock = true;
      inSummary = false;
      current = undefined;
      continue;
    }
    if (RULE.test(line)) {
      inSummary = SUMMARY_RULE.test(line);
      inBlock = false;
      current = undefined;
      continue;
    }
    const sum = SUMMARY.exec(line);
    if (sum?.[1] && sum[2] && inSummary) {
      summary.push({ kind: sum[1], id: sum[2], ...(sum[3] ? { message: sum[3] } : {}) });
      continue;
    }
    if (!inBlock) continue;
    const head = SECTION.exec(line);
    if (head?.[1]) {
      current = { name: head[1], frames: [], errors: [] };
      sections.push(current);
      continue;
    }
    if (!current) continue;
    const frame = FRAME.exec(line);
    if (frame?.[1] && frame[2] && frame[3]) current.frames.push({ file: frame[1], line: Number(frame[2]), fn: frame[3] });
    else if (line.startsWith('E ')) current.errors.push(line.slice(1).trim());
  }

  const failures: ParsedFailure[] = [];
  const used = new Set<Section>();
  for (const s of summary) {
    const section = sections.find((x) => !used.has(x) && sectionMatches(x.name, s.id));
    if (section) used.add(section);
    failures.push(toFailure(s.id, section, s.message, rootdir, ctx.cwd));
  }
  // Without a short summary (no -r), the sections alone.
  for (const section of sections) {
    if (!used.has(section)) failures.push(toFailure(section.name, section, undefined, rootdir, ctx.cwd));
  }
  return failures;
}

/** `TestOps.test_x` is the headline of `tests/test_ops.py::TestOps::test_x`; `ERROR collecting f.py` of `f.py`. */
function sectionMatches(name: string, id: string): boolean {
  const [file = '', ...parts] = id.split('::');
  if (parts.length === 0) return name === `ERROR collecting ${file}` || name === file;
  const headline = parts.join('.');
  return name === headline || name === `ERROR at setup of ${headline}` || name === `ERROR at teardown of ${headline}`;
}

function toFailure(id: string, section: Section | undefined, summaryMessage: string | undefined, rootdir: string, cwd: string): ParsedFailure {
  const idFile = id.includes('::') || id.endsWith('.py') ? id.split('::')[0] : undefined;
  const testFile = idFile ? absolutePath(idFile, rootdir) : undefined;
  const fn = id.split('::').at(-1)?.replace(/\[.*$/, '');
  const frames = (section?.frames ?? []).map((f) => ({ ...f, file: absolutePath(f.file, cwd) }));
  const inTestFile = frames.filter((f) => f.file === testFile);
  const frame = inTestFile.find((f) => f.fn === fn) ?? inTestFile.at(-1) ?? frames.at(-1);
  const message = section?.errors.length ? section.errors.slice(0, 6).join('\n') : (summaryMessage ?? 'failed');
  const failure: ParsedFailure = { test_id: id, message };
  if (frame) {
    failure.file = frame.file;
    failure.line = frame.line;
  } else if (testFile) {
    failure.file = testFile;
  }
  return failure;
}
