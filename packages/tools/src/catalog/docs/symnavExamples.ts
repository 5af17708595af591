import type { ToolExample } from '../toolExample.js';

/** docs/tools.md examples of the highlight, rename check, inlay hint, semantic token and log level tools. */
export const SYMNAV_EXAMPLES: Record<string, ToolExample> = {
  get_document_highlights: {
    args: { file_path: 'py/shop/pricing.py', position_pattern: '@@subtotal = sum' },
    result: ['2 highlight(s) in py/shop/pricing.py:', '8:5-8:13 write', '9:18-9:26 read'].join('\n'),
  },
  prepare_rename: {
    args: { file_path: 'ts/src/cart.ts', position_pattern: 'this.items.@@push' },
    result: 'cannot rename here: typescript-language-server says: You cannot rename elements that are defined in the standard TypeScript library.',
  },
  get_inlay_hints: {
    args: { file_path: 'ts/src/cart.ts', start_line: 15, end_line: 17 },
    result: ['7 inlay hint(s):', '16:19 parameter "cents:"', '16:37 parameter "callbackfn:"', '16:41 type ": number"', '…', '16:68 parameter "rate:"'].join('\n'),
  },
  get_semantic_tokens: {
    args: { file_path: 'ts/src/cart.ts', start_line: 8, end_line: 9 },
    result: ['3 token(s):', '8:14 class[declaration] "Cart"', '9:20 property[declaration,readonly] "items"', '9:27 interface "Item"'].join('\n'),
  },
  set_log_level: {
    args: { level: 'debug' },
    result: 'Log notifications at debug and above are sent from now on (stderr logging is unchanged).',
  },
};
