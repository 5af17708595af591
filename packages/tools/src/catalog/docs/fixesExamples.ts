import type { ToolExample } from '../toolExample.js';

/** Worked examples of the fix and safe-edit tools (spread into TOOL_EXAMPLES), answered on examples/workspace. */
export const FIXES_EXAMPLES: Record<string, ToolExample> = {
  suggest_fixes: {
    args: { file_path: 'ts/src/report.ts', start_line: 9, start_column: 43, end_line: 9, end_column: 47 },
    result: [
      'Diagnostics in range:',
      "  ts/src/report.ts:9:43 error [2345] (typescript): Argument of type 'string' is not assignable to parameter of type 'number'.",
      '4 action(s) (apply_fix {action_id} applies one):',
      '- [fx1] Move to a new file [refactor.move.newFile]',
      '    runs _typescript.applyRefactoring',
      '- [fx2] Convert to template string [refactor.rewrite.string]',
      '    runs _typescript.applyRefactoring',
      '…',
    ].join('\n'),
  },
  apply_fix: {
    args: { file_path: 'ts/src/report.ts', start_line: 9, start_column: 43, end_line: 9, end_column: 47, title: 'Extract to constant in enclosing scope' },
    result: [
      'Applied "Extract to constant in enclosing scope" (then ran _typescript.applyRefactoring).',
      'Changed 1 file(s): ts/src/report.ts (modified). Checkpoint cp_3115da712da5 (undo_last or rollback_to undoes it).',
      '--- a/ts/src/report.ts',
      '+++ b/ts/src/report.ts',
      '@@ -5,5 +5,6 @@',
      '   return `Cart total: ${formatPrice(cart.total())}`;',
      ' }',
      ' ',
      "+const newLocal = '12';",
      ' // A deliberate error: formatPrice takes cents as a number.',
      "-export const broken: string = formatPrice('12');",
      '+export const broken: string = formatPrice(newLocal);',
    ].join('\n'),
  },
  safe_apply_edit: {
    args: { file_path: 'py/shop/pricing.py', old_text: 'return total / count', new_text: 'return "none"' },
    result: [
      'Refused, nothing written: it would change the error count by +1, more than max_net_delta 0.',
      'net_delta +1: the edits break something (1 introduced, 0 resolved). Scope file, confidence high, settled by pull, 361 ms.',
      'Errors introduced:',
      '  py/shop/pricing.py:13:12 error [reportReturnType] (Pyright): Type "Literal[\'none\']" is not assignable to return type "float" / "Literal[\'none\']" is not assignable to "float"',
      '…',
    ].join('\n'),
  },
  replace_in_files: {
    args: { needle: 'unit_price', repl: 'price_each', dry_run: true },
    result: [
      'Dry run: would replace 3 of 3 occurrence(s).',
      'Dry run, nothing written. Would change 2 file(s): py/shop/checkout.py (modified), py/shop/pricing.py (modified)',
      '--- a/py/shop/checkout.py',
      '+++ b/py/shop/checkout.py',
      '…',
      '[py/shop/checkout.py:0@aab9ace5726de532] py/shop/checkout.py:1:41',
      '  - from shop.pricing import compute_total, unit_price',
      '  + from shop.pricing import compute_total, price_each',
      '…',
      '[py/shop/pricing.py:0@2e491069bf526ecc] py/shop/pricing.py:12:5',
      '  - def unit_price(total: float, count: int) -> float:',
      '  + def price_each(total: float, count: int) -> float:',
    ].join('\n'),
  },
  did_change_watched_files: {
    args: { changes: [{ file_path: 'py/shop/pricing.py', type: 'changed' }] },
    result: 'Reported 1 file(s) to 2 language server(s): py/shop/pricing.py (changed). Open copies now read as on disk.',
  },
};
