import { absolutePath, outputLines, type ParseContext, type ParsedFailure } from './failure.js';

const SUBTEST = /^(\s*)# Subtest: (.+)$/;
const NOT_OK = /^(\s*)not ok \d+ - (.+?)(?: # .*)?$/;
const YAML_START = /^\s*---\s*$/;
const YAML_END = /^\s*\.\.\.\s*$/;
const FRAME = /(?:\(|\s|^)((?:file:\/\/)?\/[^\s()]+?):(\d+):(\d+)\)?\s*$/;

/**
 * `node --test` in its TAP form (the reporter for a pipe on Node 20): `not ok` lines with a YAML
 * block (`location`, `error`, `stack`). Suites that failed only through their subtests are left out;
 * the location is the stack's frame in the test's file (the failing line), else the test's own.
 */
export function parseNodeTest(output: string, ctx: ParseContext): ParsedFailure[] {
  const lines = outputLines(output);
  const tap = parseTap(lines, ctx);
  return tap.length > 0 ? tap : parseSpec(lines, ctx);
}

// ✖ is written \u2716: esbuild leaves regular expressions as written, and one non-ASCII character
// in the bundle makes V8 hold its whole source (1.5 MB) at two bytes per character in every process.
const SPEC_SUMMARY = /^\u2716 failing tests:$/;
const SPEC_AT = /^test at (.+):(\d+):(\d+)$/;
const SPEC_FAILED = /^\u2716 (.+?) \([\d.]+m?s\)$/;
const STACK_AT = /^\s*at (?:.*? \()?((?:file:\/\/)?\/[^\s()]+?):(\d+):(\d+)\)?\s*$/;

/**
 * The spec reporter (a terminal's, and a pipe's from Node 23): its closing `✖ failing tests:`
 * list gives each failed test with `test at file:line:col`, its message and stack.
 */
function parseSpec(lines: readonly string[], ctx: ParseContext): ParsedFailure[] {
  const start = lines.findIndex((l) => SPEC_SUMMARY.test(l));
  if (start < 0) return [];
  const failures: ParsedFailure[] = [];
  for (let i = start + 1; i < lines.length; i++) {
    const at = SPEC_AT.exec(lines[i] ?? '');
    const failed = SPEC_FAILED.exec(lines[i + 1] ?? '');
    if (!at?.[1] || !failed?.[1]) continue;
    const testFile = absolutePath(at[1], ctx.cwd);
    const body: string[] = [];
    for (let j = i + 2; j < lines.length && !SPEC_AT.test(lines[j] ?? ''); j++) body.push(lines[j] ?? '');
    const frames = body.flatMap((l) => {
      const m = STACK_AT.exec(l);
      return m?.[1] && m[2] && m[3] ? [{ file: absolutePath(m[1], ctx.cwd), line: Number(m[2]), column: Number(m[3]) }] : [];
    });
    const frame = frames.find((f) => f.file === testFile) ?? { file: testFile, line: Number(at[2]), column: Number(at[3]) };
    const message = body.map((l) => l.trim()).filter((l) => l !== '');
    const end = message.findIndex((l) => l.startsWith('at '));
    failures.push({ test_id: failed[1], message: (end < 0 ? message : message.slice(0, end)).join('\n') || 'failed', ...frame });
  }
  return failures;
}

function parseTap(lines: readonly string[], ctx: ParseContext): ParsedFailure[] {
  const names: { indent: number; name: string }[] = [];
  const failures: ParsedFailure[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const sub = SUBTEST.exec(line);
    if (sub) {
      const indent = sub[1]?.length ?? 0;
      while (names.length > 0 && (names.at(-1)?.indent ?? 0) >= indent) names.pop();
      names.push({ indent, name: sub[2] ?? '' });
      continue;
    }
    const bad = NOT_OK.exec(line);
    if (!bad) continue;
    const indent = bad[1]?.length ?? 0;
    const path = names.filter((n) => n.indent < indent).map((n) => n.name);
    const yaml: string[] = [];
    if (YAML_START.test(lines[i + 1] ?? '')) {
      let j = i + 2;
      for (; j < lines.length && !YAML_END.test(lines[j] ?? ''); j++) yaml.push(lines[j] ?? '');
      i = j;
    }
    const fields = yamlFields(yaml);
    if (fields.get('failureType') === 'subtestsFailed') continue;
    const location = fields.get('location');
    const locMatch = location ? FRAME.exec(location) : null;
    const testFile = locMatch?.[1] ? absolutePath(locMatch[1], ctx.cwd) : undefined;
    const frames = (fields.get('stack') ?? '').split('\n').flatMap((l) => {
      const m = FRAME.exec(l.trim());
      return m?.[1] && m[2] && m[3] ? [{ file: absolutePath(m[1], ctx.cwd), line: Number(m[2]), column: Number(m[3]) }] : [];
    });
    const own = locMatch?.[1] && locMatch[2] && locMatch[3] ? { file: absolutePath(locMatch[1], ctx.cwd), line: Number(locMatch[2]), column: Number(locMatch[3]) } : undefined;
    const frame = frames.find((f) => f.file === testFile) ?? own ?? frames[0];
    const message = (fields.get('error') ?? 'failed').trim().split('\n').filter((l) => l.trim() !== '').join('\n');
    failures.push({ test_id: [...path, bad[2] ?? ''].join(' > '), message, ...(frame ?? {}) });
  }
  return failures;
}

/** The top-level keys of a TAP YAML block; `|-` blocks joined, quoted scalars unquoted. */
function yamlFields(lines: readonly string[]): Map<string, string> {
  const fields = new Map<string, string>();
  const baseIndent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.length - line.trimStart().length !== baseIndent) continue;
    const m = /^\s*([\w]+): ?(.*)$/.exec(line);
    if (!m?.[1]) continue;
    const value = m[2] ?? '';
    if (value === '|-' || value === '|' || value === '>-') {
      const block: string[] = [];
      for (let j = i + 1; j < lines.length; j++) {
        const next = lines[j] ?? '';
        if (next.trim() !== '' && next.length - next.trimStart().length <= baseIndent) break;
        block.push(next.trim());
      }
      fields.set(m[1], block.join('\n'));
    } else {
      fields.set(m[1], value.replace(/^'(.*)'$/, '$1').replace(/''/g, "'"));
    }
  }
  return fields;
}
