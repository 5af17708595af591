import type { ToolExample } from '../toolExample.js';

/** Worked examples of the symbol tools, on examples/workspace (see examples.ts). */
export const SYMBOL_TOOL_EXAMPLES: Record<string, ToolExample> = {
  get_symbol_source: {
    args: { symbol_path: 'pricing.compute_total' },
    result: [
      'function compute_total py/shop/pricing.py:6-9',
      'def compute_total(prices: list[float], discount: float = 0.0) -> float:',
      '    """Sum of the prices, less the discount, plus tax."""',
      '    subtotal = sum(prices) - discount',
      '    return round(subtotal * (1 + TAX_RATE), 2)',
    ].join('\n'),
  },
  go_to_symbol: {
    args: { symbol_path: 'Cart.total' },
    result: ['1 definition(s):', 'method Cart.total ts/src/cart.ts:15:3'].join('\n'),
  },
  get_symbol_documentation: {
    args: { symbol_path: 'shop.pricing.compute_total' },
    result: [
      'compute_total (python ast):',
      'def compute_total(prices: list[float], discount: float=0.0) -> float',
      '    Sum of the prices, less the discount, plus tax.',
    ].join('\n'),
  },
  replace_symbol_body: {
    args: { file_path: 'py/shop/pricing.py', symbol_path: 'unit_price', new_body: 'if count == 0:\n    raise ValueError("count must be positive")\nreturn total / count' },
    result: [
      'Changed 1 file(s): py/shop/pricing.py (modified). Checkpoint cp_47a677950c7c (undo_last or rollback_to undoes it).',
      '--- a/py/shop/pricing.py',
      '+++ b/py/shop/pricing.py',
      '@@ -10,4 +10,6 @@',
      ' ',
      ' ',
      ' def unit_price(total: float, count: int) -> float:',
      '+    if count == 0:',
      '+        raise ValueError("count must be positive")',
      '     return total / count',
      'No new errors or warnings.',
    ].join('\n'),
  },
  insert_before_symbol: {
    args: { symbol_path: 'ts/src/money.ts:addTax', code: 'export const DEFAULT_RATE = 0.2;' },
    result: [
      'Changed 1 file(s): ts/src/money.ts (modified). Checkpoint cp_7460f02441b7 (undo_last or rollback_to undoes it).',
      '--- a/ts/src/money.ts',
      '+++ b/ts/src/money.ts',
      '@@ -3,6 +3,8 @@',
      '   return `${(cents / 100).toFixed(2)} ${currency}`;',
      ' }',
      ' ',
      '+export const DEFAULT_RATE = 0.2;',
      '+',
      ' export function addTax(cents: number, rate: number): number {',
      '   return Math.round(cents * (1 + rate));',
      ' }',
      'No new errors or warnings.',
    ].join('\n'),
  },
  insert_after_symbol: {
    args: { symbol_path: 'pricing.compute_total', code: 'def total_with_shipping(prices: list[float], shipping: float) -> float:\n    return compute_total(prices) + shipping' },
    result: [
      'Changed 1 file(s): py/shop/pricing.py (modified). Checkpoint cp_0d3bedeb5ace (undo_last or rollback_to undoes it).',
      '--- a/py/shop/pricing.py',
      '+++ b/py/shop/pricing.py',
      '@@ -9,6 +9,10 @@',
      '     return round(subtotal * (1 + TAX_RATE), 2)',
      ' ',
      ' ',
      '+def total_with_shipping(prices: list[float], shipping: float) -> float:',
      '+    return compute_total(prices) + shipping',
      '+',
      '+',
      ' def unit_price(total: float, count: int) -> float:',
      '…',
      'No new errors or warnings.',
    ].join('\n'),
  },
  safe_delete_symbol: {
    args: { symbol_path: 'pricing.compute_total' },
    result: [
      'Refused: compute_total is still referenced 7 time(s); nothing was written. Remove the uses first, or pass force: true.',
      'py/shop/checkout.py: 1:26 5:13 10:23 14:14',
      'py/shop/pricing.py: 13:12',
      'py/shop/reports.py: 1:26 5:13',
    ].join('\n'),
  },
};
