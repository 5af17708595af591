import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = join(REPO_ROOT, 'bin', 'agent-lsp');
/** bin/agent-lsp with test hooks injected (testFront.mjs). */
export const TEST_FRONT = join(REPO_ROOT, 'test', 'helpers', 'testFront.mjs');
export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures');
export const EXAMPLE_WORKSPACE = join(REPO_ROOT, 'examples', 'workspace');
