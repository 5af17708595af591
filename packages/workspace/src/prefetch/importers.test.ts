import { describe, expect, it } from 'vitest';
import { importsOf } from './importers.js';

const UTIL_PY = 'file:///w/pkg/util.py';
const UTIL_TS = 'file:///w/src/util.ts';

describe('importsOf', () => {
  it('sees Python, TypeScript and C imports of a module by its stem', () => {
    expect(importsOf('import os\nfrom pkg.util import helper\n', 'file:///w/main.py', UTIL_PY)).toBe(true);
    expect(importsOf('from . import util\n', 'file:///w/pkg/main.py', UTIL_PY)).toBe(true);
    expect(importsOf("import { helper } from './util.js';\n", 'file:///w/src/main.ts', UTIL_TS)).toBe(true);
    expect(importsOf("export { helper } from './util';\n", 'file:///w/src/index.ts', UTIL_TS)).toBe(true);
    expect(importsOf('const u = require("./util");\n', 'file:///w/src/main.js', UTIL_TS)).toBe(true);
    expect(importsOf('#include "util.h"\n', 'file:///w/main.c', 'file:///w/util.h')).toBe(true);
  });

  it('ignores mentions outside import lines, longer names, the file itself and index modules', () => {
    expect(importsOf('x = util_helper()\n# util is nice\n', 'file:///w/main.py', UTIL_PY)).toBe(false);
    expect(importsOf('from pkg.utility import helper\n', 'file:///w/main.py', UTIL_PY)).toBe(false);
    expect(importsOf('from pkg.util import helper\n', UTIL_PY, UTIL_PY)).toBe(false);
    expect(importsOf("import x from './index';\n", 'file:///w/src/main.ts', 'file:///w/src/index.ts')).toBe(false);
  });
});
