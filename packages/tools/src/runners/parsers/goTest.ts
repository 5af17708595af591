import { join } from 'node:path';
import { absolutePath, outputLines, type ParseContext, type ParsedFailure } from './failure.js';

/** A compile or vet error: `./calc.go:4:9: cannot use …` (relative to the directory go ran in). */
const BUILD_ERROR = /^(\S+\.go):(\d+):(\d+): (.*)$/;
const TEST_FAIL = /^(\s*)--- FAIL: (\S+) \(/;
/** A t.Error line: `    calc_test.go:13: message` (relative to the package's directory). */
const TEST_LOG = /^(\s+)(\S+\.go):(\d+): (.*)$/;
const PACKAGE_END = /^(?:FAIL|ok)\s+(\S+)(?:\s|$)/;
const PANIC_FRAME = /^\t(\/\S+\.go):(\d+)/;

interface PendingTest extends ParsedFailure {
  test_id: string;
  /** Set while the file is still relative to the package's directory (known when the package ends). */
  relative?: string;
  indent: number;
}

/**
 * `go test`: `--- FAIL: TestX` blocks with `file.go:N: message` lines (files relative to the
 * package, resolved through go.mod when the package's `FAIL pkg` line ends its block), panics (the
 * test function's frame in the goroutine trace), and compile/vet errors. Parents that failed only
 * through their subtests are left out. `go build` output is read by the same rules.
 */
export function parseGoTest(output: string, ctx: ParseContext): ParsedFailure[] {
  const failures: ParsedFailure[] = [];
  let pending: PendingTest[] = [];
  let current: PendingTest | undefined;
  let panicking: PendingTest | undefined;
  let panicFrameNext = false;
  const lines = outputLines(output);
  for (const line of lines) {
    const fail = TEST_FAIL.exec(line);
    if (fail?.[2]) {
      current = { test_id: fail[2], message: '', indent: fail[1]?.length ?? 0 };
      pending.push(current);
      continue;
    }
    const end = PACKAGE_END.exec(line);
    if (end?.[1]) {
      const dir = packageDir(end[1], ctx);
      for (const t of pending) finish(t, dir, failures, pending);
      pending = [];
      current = undefined;
      panicking = undefined;
      continue;
    }
    const build = BUILD_ERROR.exec(line);
    if (build?.[1] && build[2] && build[3]) {
      failures.push({ file: absolutePath(build[1], ctx.cwd), line: Number(build[2]), column: Number(build[3]), severity: 'error', message: build[4] ?? '' });
      continue;
    }
    if (line.startsWith('panic: ') && current && !panicking) {
      panicking = current;
      if (!current.message) current.message = line.replace(/ \[recovered\]$/, '');
      continue;
    }
    if (panicking) {
      if (panicFrameNext) {
        const frame = PANIC_FRAME.exec(line);
        if (frame?.[1] && frame[2] && panicking.line === undefined) {
          panicking.file = frame[1];
          panicking.line = Number(frame[2]);
        }
        panicFrameNext = false;
      } else if (line.includes(`.${panicking.test_id.split('/')[0] ?? ''}(`)) {
        panicFrameNext = true;
      }
      continue;
    }
    const log = TEST_LOG.exec(line);
    if (log?.[2] && log[3] && current) {
      if (current.line === undefined) {
        current.relative = log[2];
        current.line = Number(log[3]);
        current.message = log[4] ?? '';
      } else {
        current.message += `\n${log[4] ?? ''}`;
      }
      continue;
    }
    if (current?.line !== undefined && /^\s{8,}\S/.test(line)) current.message += `\n${line.trim()}`;
  }
  // Output cut before a package ended: resolve against the directory go ran in.
  for (const t of pending) finish(t, ctx.cwd, failures, pending);
  return failures;
}

function finish(test: PendingTest, dir: string, out: ParsedFailure[], all: readonly PendingTest[]): void {
  const hasFailingSubtest = all.some((t) => t !== test && t.test_id.startsWith(`${test.test_id}/`));
  if (hasFailingSubtest && test.line === undefined) return;
  const failure: ParsedFailure = { test_id: test.test_id, message: test.message || 'failed' };
  if (test.relative !== undefined) failure.file = absolutePath(test.relative, dir);
  else if (test.file !== undefined) failure.file = test.file;
  if (test.line !== undefined) failure.line = test.line;
  out.push(failure);
}

/** The directory of an import path inside the module go ran in; the directory go ran in otherwise. */
function packageDir(importPath: string, ctx: ParseContext): string {
  const mod = ctx.goModule;
  if (!mod) return ctx.cwd;
  if (importPath === mod.path) return mod.dir;
  if (importPath.startsWith(`${mod.path}/`)) return join(mod.dir, importPath.slice(mod.path.length + 1));
  return ctx.cwd;
}
