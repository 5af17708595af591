import { findExecutable } from '@agent-lsp/lsp';
import { delimiter, join } from 'node:path';

/** Whether an executable of that name is on PATH (tests of optional servers say when they did not run). */
export function onPath(binary: string): boolean {
  return findExecutable(binary) !== undefined;
}

/** PATH without the directories that hold `binary` (a test of the behaviour without it, whatever the machine has). */
export function pathWithout(binary: string, path = process.env['PATH'] ?? ''): string {
  return path
    .split(delimiter)
    .filter((dir) => dir && findExecutable(join(dir, binary)) === undefined)
    .join(delimiter);
}
