import { findExecutable } from '@agent-lsp/lsp';

/** Whether an executable of that name is on PATH (tests of optional servers say when they did not run). */
export function onPath(binary: string): boolean {
  return findExecutable(binary) !== undefined;
}
