import { describe, expect, it } from 'vitest';
import { wordsInCode } from './codeWords.js';

describe('wordsInCode', () => {
  it('finds whole identifiers in code, not in comments, strings or longer names', () => {
    const go = ['// Walk traverses a tree.', 'func walkList() {', '\tWalk(v, n) /* Walk */', '\tast.Walk(v, "Walk")', '\tWalker(`Walk', 'Walk`)', '\tx := WalkAll', '\tWalk(v, \'W\')', '}'].join('\n');
    expect(wordsInCode(go, 'Walk', false)).toEqual([
      { line: 2, character: 1 },
      { line: 3, character: 5 },
      { line: 7, character: 1 },
    ]);
  });

  it('reads Python comments and triple-quoted docstrings', () => {
    const py = ['def f():', '    """Calls load_rows', '    load_rows twice."""', '    return load_rows(x)  # load_rows', "    s = 'load_rows'"].join('\n');
    expect(wordsInCode(py, 'load_rows', true)).toEqual([{ line: 3, character: 11 }]);
  });
});
