import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from './gitDiff.js';

describe('parseUnifiedDiff', () => {
  it('reads both sides of every hunk: the new text\'s changed lines and the base\'s changed or removed ones', () => {
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
      'diff --git a/moved.py b/pkg/moved.py',
      'similarity index 100%',
      'rename from moved.py',
      'rename to pkg/moved.py',
      'diff --git a/util.py b/lib/util.py',
      'similarity index 90%',
      'rename from util.py',
      'rename to lib/util.py',
      'index 3..4 100644',
      '--- a/util.py',
      '+++ b/lib/util.py',
      '@@ -3 +3 @@',
    ].join('\n');
    expect(parseUnifiedDiff(diff)).toEqual([
      // A pure deletion (-9,2 +10,0) marks no line of the new text: the lines around it did not change.
      { path: 'graph/store.py', status: 'modified', lines: [[5, 5], [21, 23]], oldLines: [[5, 5], [9, 10]] },
      { path: 'new.py', status: 'added', lines: [[1, 2]], oldLines: [] },
      { path: 'old.py', status: 'deleted', lines: [], oldLines: [[1, 2]] },
      { path: 'pkg/moved.py', oldPath: 'moved.py', status: 'renamed', lines: [], oldLines: [] },
      { path: 'lib/util.py', oldPath: 'util.py', status: 'renamed', lines: [[3, 3]], oldLines: [[3, 3]] },
    ]);
  });
});
