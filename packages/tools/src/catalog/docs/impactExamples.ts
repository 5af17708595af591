import type { ToolExample } from '../toolExample.js';

/**
 * Worked examples of the call/type hierarchy and change-impact tools on examples/workspace
 * (spread into TOOL_EXAMPLES). detect_changes ran on a git copy of the workspace after
 * compute_total got a `tax` parameter and unit_price's body changed.
 */
export const IMPACT_EXAMPLES: Record<string, ToolExample> = {
  find_callers: {
    args: { file_path: 'py/shop/pricing.py', position_pattern: 'def @@compute_total(', depth: 2 },
    result: [
      'function compute_total (py/shop/pricing.py:6:5)',
      '4 call(s):',
      '← receipt (function) py/shop/checkout.py:4:5 — at 5:13',
      '← average (function) py/shop/checkout.py:9:5 — at 10:23',
      '← (module) checkout.py (module) py/shop/checkout.py:1:1 — at 14:14',
      '← daily (function) py/shop/reports.py:4:5 — at 5:13',
    ].join('\n'),
  },
  type_hierarchy: {
    args: { file_path: 'ts/src/cart.ts', position_pattern: 'class @@Cart' },
    result: ['class Cart (ts/src/cart.ts:8:14) — derived from class heads (the server has no type hierarchy)', 'supertypes: none', 'subtypes: none'].join('\n'),
  },
  explore_symbol: {
    args: { file_path: 'py/shop/pricing.py', position_pattern: 'def @@unit_price(' },
    result: [
      'function unit_price (py/shop/pricing.py:12:5)',
      '```python',
      '(function) def unit_price(',
      '    total: float,',
      '    count: int',
      ') -> float',
      '```',
      'definition: py/shop/pricing.py:12:5',
      'callers (1):',
      '← average (function) py/shop/checkout.py:9:5 — at 10:12',
      'references: 2',
      'py/shop/checkout.py: 1:41 10:12',
    ].join('\n'),
  },
  get_editing_context: {
    args: { file_path: 'py/shop/pricing.py' },
    result: [
      'py/shop/pricing.py etag "7ccf1fd4fda7109e5a49"',
      'outline:',
      '  constant TAX_RATE 3-3',
      '  function compute_total 6-9',
      '  function unit_price 12-13',
      'imports (0):',
      'used from other files (8):',
      '  compute_total ← <module> py/shop/checkout.py:1:26',
      '  compute_total ← receipt py/shop/checkout.py:5:13',
      '…',
      '  unit_price ← average py/shop/checkout.py:10:12',
      'calls (2):',
      '  compute_total → sum …/typeshed-fallback/stdlib/builtins.pyi:2214:5',
      '  compute_total → round …/typeshed-fallback/stdlib/builtins.pyi:2175:5',
    ].join('\n'),
  },
  blast_radius: {
    args: { changed_files: ['ts/src/money.ts'] },
    result: [
      '7 use(s) from other files: 7 non-test, 0 test (a test file is one under a directory named test, tests, __tests__, spec or testing, …)',
      'symbols:',
      '  function addTax ts/src/money.ts:6: 2 non-test, 0 test',
      '  function formatPrice ts/src/money.ts:2: 5 non-test, 0 test',
      '2 file(s) using them:',
      'ts/src/cart.ts (4): 1:10 addTax; 16:12 addTax in Cart.total; 1:18 formatPrice; 20:43 formatPrice in Cart.describe',
      'ts/src/report.ts (3): 2:10 formatPrice; 5:25 formatPrice in summary; 9:31 formatPrice',
    ].join('\n'),
  },
  detect_changes: {
    args: { base: 'HEAD' },
    result: [
      'Changes against HEAD: py/shop/pricing.py (modified)',
      '2 changed symbol(s):',
      'HIGH function compute_total py/shop/pricing.py:6 (signature): 6 non-test, 0 test use(s)',
      '  py/shop/checkout.py (4): 1:26 compute_total; 5:13 compute_total in receipt; 10:23 compute_total in average; 14:14 compute_total',
      '  py/shop/reports.py (2): 1:26 compute_total; 5:13 compute_total in daily',
      'HIGH function unit_price py/shop/pricing.py:12 (body): 2 non-test, 0 test use(s)',
      '  py/shop/checkout.py (2): 1:41 unit_price; 10:12 unit_price in average',
      'risk: high: used by non-test code in other files and (no test file uses it, or its signature changed, or 10+ non-test uses); …',
    ].join('\n'),
  },
  get_cross_repo_references: {
    args: { file_path: 'src/service.ts', position_pattern: 'function @@summarize(', consumer_roots: ['/path/to/consumer'] },
    result: ['7 reference(s):', '/path/to/lib (5)', '  src/cli.ts: 1:10 4:10', '  src/service.ts: 9:27', '  tests/service.test.ts: 1:10 4:10', '/path/to/consumer (2)', '  src/app.ts: 1:10 3:22'].join('\n'),
  },
};
