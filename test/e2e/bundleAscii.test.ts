import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * V8 keeps a script's whole source in memory for as long as its functions live (it compiles them
 * lazily from it): the bundle's 1.5 MB in every front and broker. One character outside ASCII makes
 * that string two bytes per character. esbuild escapes strings but writes regular expressions as
 * they are, so a literal such as /✖/ in the sources must be written /\u2716/.
 */
describe('the bundle', () => {
  it('is ASCII, so V8 holds its source at one byte per character', () => {
    const bundle = join(REPO_ROOT, 'dist', 'agent-lsp.cjs');
    expect(existsSync(bundle), 'dist/agent-lsp.cjs is missing: run `pnpm build`').toBe(true);
    const text = readFileSync(bundle, 'latin1');
    const found = [...text.matchAll(/[^\t\n\r -~]+/g)].slice(0, 5).map((m) => JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 10)));
    expect(found, 'non-ASCII bytes in the bundle (escape them in the source, e.g. \\u2716)').toEqual([]);
  });
});
