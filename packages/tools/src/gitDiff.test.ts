import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from './gitDiff.js';

describe('parseUnifiedDiff', () => {
  it('reads changed, added and deleted line ranges of the new text per file', () => {
    const diff = [
      'diff --git a/graph/store.py b/graph/store.py',
      'index 1..2 100644',
      '--- a/graph/store.py',
      '+++ b/graph/store.py',
      '@@ -5 +5 @@ def load_rows',
      '-    return []',
      '+    return [1]',
      '@@ -9,2 +10,0 @@',
      '-a',
      '-b',
      '@@ -20,0 +21,3 @@',
      '+x',
      'diff --git a/new.py b/new.py',
      'new file mode 100644',
      '--- /dev/null',
      '+++ b/new.py',
      '@@ -0,0 +1,2 @@',
      'diff --git a/old.py b/old.py',
      'deleted file mode 100644',
      '--- a/old.py',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
    ].join('\n');
    expect(parseUnifiedDiff(diff)).toEqual([
      { path: 'graph/store.py', status: 'modified', lines: [[5, 5], [10, 10], [21, 23]] },
      { path: 'new.py', status: 'added', lines: [[1, 2]] },
      { path: 'old.py', status: 'deleted', lines: [[1, 1]] },
    ]);
  });
});
