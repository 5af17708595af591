import { expect } from 'vitest';
import type { UserError } from '@agent-lsp/protocol';

/**
 * Runs `fn`, expecting it to throw a UserError, and returns that error for further checks. By name,
 * not instanceof: unit tests load a package's sources while other packages load its build.
 */
export function userErrorFrom(fn: () => unknown): UserError {
  try {
    fn();
  } catch (err) {
    expect((err as Error).name).toBe('UserError');
    return err as UserError;
  }
  throw new Error('expected a UserError, but nothing was thrown');
}
