import { describe, expect, it } from 'vitest';
import { getDiagnostics } from './diagnostics.js';

describe('get_diagnostics text', () => {
  it('says a file the server never confirmed is not settled, before any count', () => {
    const text = getDiagnostics.text({ ready: true, total: 0, complete: false, offset: 0, limit: 200, returned: 0, errors: 0, warnings: 0, files: [{ file: 'broken.py', settled_by: 'timeout', errors: 0, warnings: 0 }], diagnostics: [] });
    expect(text.split('\n')[0]).toMatch(/^broken\.py: NOT SETTLED .*not an answer/);
  });

  it('answers a confirmed file with its counts alone', () => {
    const text = getDiagnostics.text({ ready: true, total: 0, complete: true, offset: 0, limit: 200, returned: 0, errors: 0, warnings: 0, files: [{ file: 'ok.py', settled_by: 'pull', errors: 0, warnings: 0 }], diagnostics: [] });
    expect(text).toBe('0 error(s), 0 warning(s) in 1 file(s) (settled by pull).');
  });
});
