import { isAbsolute, resolve } from 'node:path';

/** One failure a runner reported, as a parser read it from the runner's output. */
export interface ParsedFailure {
  /** The test as its runner names it (pytest node id, unittest id, Go test name, "suite > test"); absent for build errors. */
  test_id?: string;
  /** Absolute path. */
  file?: string;
  line?: number;
  column?: number;
  severity?: 'error' | 'warning';
  message: string;
}

/** What a parser needs to turn the paths a runner prints into absolute ones. */
export interface ParseContext {
  /** The directory the runner ran in. */
  cwd: string;
  /** The Go module the runner ran in: `go test` names files relative to their package's directory. */
  goModule?: { path: string; dir: string };
}

export type FailureParser = (output: string, ctx: ParseContext) => ParsedFailure[];

/** Colour codes some runners print even into a pipe. */
// eslint-disable-next-line no-control-regex -- escape sequences are exactly what this removes
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

export function outputLines(output: string): string[] {
  return stripAnsi(output).split(/\r?\n/);
}

/** A printed path, absolute: `file:///x` and `/x` as they are, others against `base`. */
export function absolutePath(printed: string, base: string): string {
  const path = printed.startsWith('file://') ? decodeURIComponent(printed.slice('file://'.length)) : printed;
  return isAbsolute(path) ? resolve(path) : resolve(base, path);
}
