import { SYMBOL_TOOL_EXAMPLES } from './docs/symbolExamples.js';
import { FIXES_EXAMPLES } from './docs/fixesExamples.js';
import { IMPACT_EXAMPLES } from './docs/impactExamples.js';
import { BUILD_TOOL_EXAMPLES } from './docs/buildExamples.js';

/**
 * One worked example per tool, for docs/tools.md (rendered by toolsDoc.ts, checked by toolsDoc.test.ts).
 *
 * Every example runs against the bundled workspace at examples/workspace (Python under py/shop,
 * TypeScript under ts/src): the arguments are what an agent sends, the result an excerpt of the
 * text answer agent-lsp gave for them (pyright and typescript-language-server). Absolute paths are
 * written as /path/to/agent-lsp/…; process ids vary from run to run.
 */
import { SKILL_PHASES_EXAMPLES } from './docs/skillPhasesExamples.js';
import { PREFETCH_EXAMPLES } from './docs/prefetchExamples.js';
import { CACHE_EXAMPLES } from './docs/cacheExamples.js';

import type { ToolExample } from './toolExample.js';
export type { ToolExample } from './toolExample.js';

import { SYMNAV_EXAMPLES } from './docs/symnavExamples.js';

const REPO = '/path/to/agent-lsp';
const ROOT = `${REPO}/examples/workspace`;

export const TOOL_EXAMPLES: Record<string, ToolExample> = {
  ...IMPACT_EXAMPLES,
  ...CACHE_EXAMPLES,
  start_lsp: {
    args: { root_dir: ROOT, language_id: 'python' },
    result: [
      `Workspace: ${ROOT}`,
      'Languages found: python (4 files), typescript (3 files)',
      'Servers:',
      '- pyright for python: ready (pid 17460)',
    ].join('\n'),
  },
  restart_lsp_server: {
    args: { language_id: 'python' },
    result: ['Restarted:', '- pyright for python: ready (pid 18073)'].join('\n'),
  },
  get_server_capabilities: {
    args: { language_id: 'python' },
    result:
      'pyright supports: textDocumentSync, definitionProvider, declarationProvider, typeDefinitionProvider, referencesProvider, ' +
      'documentSymbolProvider, workspaceSymbolProvider, hoverProvider, documentHighlightProvider, renameProvider, completionProvider, ' +
      'signatureHelpProvider, codeActionProvider, executeCommandProvider, callHierarchyProvider, workspace, ' +
      'workspace/didChangeWatchedFiles (dynamic), textDocument/diagnostic (dynamic)',
  },
  detect_lsp_servers: {
    args: { root_dir: ROOT },
    result: [
      'python: 4 files, pyright installed',
      'typescript/typescriptreact/javascript/javascriptreact: 3 files, typescript-language-server installed',
    ].join('\n'),
  },
  get_daemon_status: {
    args: {},
    result: [
      'python /path/to/agent-lsp/examples/workspace: ready · clients 1 · up 95s · idle 0s · broker pid 417, pyright pid 428 · 185 MiB',
      'typescript /path/to/agent-lsp/examples/workspace: ready · clients 1 · up 94s · idle 0s · broker pid 562, typescript-language-server pid 573 · 410 MiB',
    ].join('\n'),
  },
  list_workspace_folders: {
    args: {},
    result: ROOT,
  },
  add_workspace_folder: {
    args: { path: `${REPO}/test/fixtures/go-basic` },
    result: ['Workspace folders:', ROOT, `${REPO}/test/fixtures/go-basic`].join('\n'),
  },
  remove_workspace_folder: {
    args: { path: `${REPO}/test/fixtures/go-basic` },
    result: ['Workspace folders:', ROOT].join('\n'),
  },
  open_document: {
    args: { file_path: 'ts/src/money.ts' },
    result: 'Opened ts/src/money.ts (typescript, 9 lines, version 1).',
  },
  close_document: {
    args: { file_path: 'ts/src/money.ts' },
    result: 'Closed ts/src/money.ts.',
  },
  get_diagnostics: {
    args: { file_path: 'ts/src/report.ts' },
    result: [
      '1 error(s), 0 warning(s) in 1 file(s) (settled by exact).',
      '1 diagnostic(s):',
      "ts/src/report.ts:9:43 error [2345] (typescript): Argument of type 'string' is not assignable to parameter of type 'number'.",
    ].join('\n'),
  },
  go_to_definition: {
    args: { file_path: 'py/shop/checkout.py', line: 5, column: 13 },
    result: ['1 definition(s) in 1 file(s):', 'py/shop/pricing.py: 6:5'].join('\n'),
  },
  go_to_type_definition: {
    args: { file_path: 'ts/src/report.ts', position_pattern: 'summary(@@cart: Cart)' },
    result: ['1 type definition(s) in 1 file(s):', 'ts/src/cart.ts: 8:14'].join('\n'),
  },
  go_to_implementation: {
    args: { file_path: 'ts/src/report.ts', position_pattern: 'cart.@@total()' },
    result: ['1 implementation(s) in 1 file(s):', 'ts/src/cart.ts: 15:3'].join('\n'),
  },
  go_to_declaration: {
    args: { file_path: 'py/shop/checkout.py', position_pattern: 'total = @@compute_total(prices)' },
    result: ['1 declaration(s) in 1 file(s):', 'py/shop/pricing.py: 6:5'].join('\n'),
  },
  find_references: {
    args: { file_path: 'py/shop/pricing.py', position_pattern: 'def @@unit_price(', include_declaration: false },
    result: ['2 reference(s) in 1 file(s):', 'py/shop/checkout.py: 1:41 10:12'].join('\n'),
  },
  inspect_symbol: {
    args: { file_path: 'py/shop/checkout.py', position_pattern: 'total = @@compute_total(prices)' },
    result: [
      '```python',
      '(function) def compute_total(',
      '    prices: list[float],',
      '    discount: float = 0',
      ') -> float',
      '```',
      '---',
      'Sum of the prices, less the discount, plus tax.',
    ].join('\n'),
  },
  list_symbols: {
    args: { file_path: 'ts/src/cart.ts' },
    result: [
      '9 symbol(s):',
      'class Cart (8:14-22:2)',
      '  method add (11:3-13:4)',
      '  method describe (19:3-21:4)',
      '  property items (9:20-9:39)',
      '  method total (15:3-17:4)',
      '    function items.reduce() callback (16:37-16:62)',
      'interface Item (3:18-6:2)',
      '  property cents (5:3-5:17)',
      '  property name (4:3-4:16)',
    ].join('\n'),
  },
  find_symbol: {
    args: { query: 'formatPrice', kind: 'function', language_id: 'typescript' },
    result: ['1 symbol(s):', 'function formatPrice ts/src/money.ts:2:1'].join('\n'),
  },
  get_completions: {
    args: { file_path: 'ts/src/report.ts', position_pattern: 'cart.@@total()', limit: 20 },
    result: ['3 completion(s):', 'add (method)', 'describe (method)', 'total (method)'].join('\n'),
  },
  get_signature_help: {
    args: { file_path: 'ts/src/cart.ts', position_pattern: '0), @@0.2)' },
    result: '▶ addTax(cents: number, rate: number): number  [at rate: number]',
  },
  apply_edit: {
    args: { file_path: 'py/shop/pricing.py', old_text: 'TAX_RATE = 0.2', new_text: 'TAX_RATE = 0.25' },
    result: [
      'Changed 1 file(s): py/shop/pricing.py (modified). Checkpoint cp_3fb7a0172e8c (undo_last or rollback_to undoes it).',
      '--- a/py/shop/pricing.py',
      '+++ b/py/shop/pricing.py',
      '@@ -1,6 +1,6 @@',
      ' """Prices and totals."""',
      ' ',
      '-TAX_RATE = 0.2',
      '+TAX_RATE = 0.25',
      ' ',
      ' ',
      ' def compute_total(prices: list[float], discount: float = 0.0) -> float:',
    ].join('\n'),
  },
  execute_command: {
    args: { command: 'pyright.organizeimports', arguments: [`file://${ROOT}/py/shop/checkout.py`], file_path: 'py/shop/checkout.py' },
    result:
      `The server answered: {"changes":{"file://${ROOT}/py/shop/checkout.py":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":50}},"newText":"from shop.pricing import compute_total, unit_price"}]}} No file changed.`,
  },
  rename_symbol: {
    args: { file_path: 'py/shop/pricing.py', position_pattern: 'def @@unit_price(', new_name: 'price_per_unit', dry_run: true },
    result: [
      'Dry run, nothing written. Would change 2 file(s): py/shop/pricing.py (modified), py/shop/checkout.py (modified)',
      '--- a/py/shop/pricing.py',
      '+++ b/py/shop/pricing.py',
      '@@ -9,5 +9,5 @@',
      '…',
      '-def unit_price(total: float, count: int) -> float:',
      '+def price_per_unit(total: float, count: int) -> float:',
      '     return total / count',
      '--- a/py/shop/checkout.py',
      '+++ b/py/shop/checkout.py',
      '@@ -1,4 +1,4 @@',
      '-from shop.pricing import compute_total, unit_price',
      '+from shop.pricing import compute_total, price_per_unit',
      '…',
    ].join('\n'),
  },
  format_document: {
    args: { file_path: 'ts/src/money.ts', tab_size: 4 },
    result: [
      'Dry run, nothing written. Would change 1 file(s): ts/src/money.ts (modified)',
      '--- a/ts/src/money.ts',
      '+++ b/ts/src/money.ts',
      '@@ -1,8 +1,8 @@',
      ' /** Formats an amount of cents as a price like "12.34 €". */',
      " export function formatPrice(cents: number, currency = '€'): string {",
      '-  return `${(cents / 100).toFixed(2)} ${currency}`;',
      '+    return `${(cents / 100).toFixed(2)} ${currency}`;',
      ' }',
      '…',
    ].join('\n'),
  },
  format_range: {
    args: { file_path: 'ts/src/money.ts', start_line: 6, start_column: 1, end_line: 8, end_column: 2, tab_size: 4, apply: true },
    result: [
      'Changed 1 file(s): ts/src/money.ts (modified). Checkpoint cp_cab67d7616a2 (undo_last or rollback_to undoes it).',
      '--- a/ts/src/money.ts',
      '+++ b/ts/src/money.ts',
      '@@ -4,5 +4,5 @@',
      ' }',
      ' ',
      ' export function addTax(cents: number, rate: number): number {',
      '-  return Math.round(cents * (1 + rate));',
      '+    return Math.round(cents * (1 + rate));',
      ' }',
    ].join('\n'),
  },
  list_checkpoints: {
    args: {},
    result: [
      '2 checkpoint(s):',
      'cp_cab67d7616a2 2026-11-21T21:57:56.731Z format_range: ts/src/money.ts (modified)',
      'cp_3fb7a0172e8c 2026-11-21T21:57:53.251Z apply_edit: py/shop/pricing.py (modified)',
    ].join('\n'),
  },
  checkpoint_diff: {
    args: { checkpoint_id: 'cp_3fb7a0172e8c' },
    result: [
      'cp_3fb7a0172e8c 2026-11-21T21:57:53.251Z apply_edit: py/shop/pricing.py (modified)',
      '--- a/py/shop/pricing.py',
      '+++ b/py/shop/pricing.py',
      '@@ -1,6 +1,6 @@',
      ' """Prices and totals."""',
      ' ',
      '-TAX_RATE = 0.2',
      '+TAX_RATE = 0.25',
      '…',
    ].join('\n'),
  },
  rollback_to: {
    args: { checkpoint_id: 'cp_3fb7a0172e8c', position: 'before' },
    result:
      'Rolled back to before cp_3fb7a0172e8c (apply_edit): 2 file(s): py/shop/pricing.py (restore), ts/src/money.ts (restore). Checkpoint cp_4feaf996e4fa (undo_last undoes this rollback).',
  },
  undo_last: {
    args: {},
    result:
      'Rolled back to before cp_4feaf996e4fa (rollback_to): 2 file(s): py/shop/pricing.py (restore), ts/src/money.ts (restore). Checkpoint cp_ed1255106998 (undo_last undoes this rollback).',
  },
  create_simulation_session: {
    args: { workspace_root: ROOT, language: 'typescript' },
    result: `Session sim_810f6b45-1b5c-4637-bc4b-e037fefebd49 created for typescript in ${ROOT}. Next: simulate_edit, then evaluate_session.`,
  },
  simulate_edit: {
    args: { session_id: 'sim_810f6b45-1b5c-4637-bc4b-e037fefebd49', file_path: 'ts/src/money.ts', old_text: 'addTax(cents: number, rate: number)', new_text: 'addTax(cents: number, rate: number, region: string)' },
    result: 'Edit applied to ts/src/money.ts in session sim_810f6b45-1b5c-4637-bc4b-e037fefebd49 (version 1); nothing written to disk. Call evaluate_session to see its effect.',
  },
  evaluate_session: {
    args: { session_id: 'sim_810f6b45-1b5c-4637-bc4b-e037fefebd49', scope: 'workspace' },
    result: [
      'Session sim_810f6b45-1b5c-4637-bc4b-e037fefebd49.',
      'net_delta +1: the edits break something (1 introduced, 0 resolved). Scope workspace (+4 dependent file(s)), confidence high, settled by exact, 247 ms.',
      'Errors introduced:',
      '  ts/src/cart.ts:16:12 error [2554] (typescript): Expected 3 arguments, but got 2.',
      'Warnings/hints introduced:',
      "  ts/src/money.ts:6:53 hint [6133] (typescript): 'region' is declared but its value is never read.",
    ].join('\n'),
  },
  simulate_chain: {
    args: {
      session_id: 'sim_64a58bc9-0906-4c30-b35c-dacea3dcdcd0',
      edits: [
        { file_path: 'py/shop/pricing.py', old_text: 'TAX_RATE = 0.2', new_text: 'TAX_RATE = 0.25' },
        { file_path: 'py/shop/pricing.py', old_text: 'return total / count', new_text: 'return f"{total / count}"' },
        { file_path: 'py/shop/pricing.py', old_text: 'return f"{total / count}"', new_text: 'return round(total / count, 2)' },
      ],
    },
    result: [
      'Safe to apply through step 1 of 3; cumulative delta 0; confidence high.',
      'step 1: net_delta 0',
      'step 2: net_delta +1 (py/shop/pricing.py:13:12 Type "str" is not assignable to return type "float")',
      'step 3: net_delta 0',
    ].join('\n'),
  },
  preview_edit: {
    args: { file_path: 'py/shop/pricing.py', start_line: 13, start_column: 12, end_line: 13, end_column: 25, new_text: 'str(total / count)' },
    result: [
      'net_delta +1: the edits break something (1 introduced, 0 resolved). Scope file, confidence high, settled by pull, 103 ms.',
      'Errors introduced:',
      '  py/shop/pricing.py:13:12 error [reportReturnType] (Pyright): Type "str" is not assignable to return type "float" / "str" is not assignable to "float"',
    ].join('\n'),
  },
  commit_session: {
    args: { session_id: 'sim_64a58bc9-0906-4c30-b35c-dacea3dcdcd0' },
    result: [
      'Committed as a patch (nothing written): py/shop/pricing.py. Apply it with apply_edit, or commit with apply: true.',
      '--- a/py/shop/pricing.py',
      '+++ b/py/shop/pricing.py',
      '@@ -1,6 +1,6 @@',
      ' """Prices and totals."""',
      ' ',
      '-TAX_RATE = 0.2',
      '+TAX_RATE = 0.25',
      '…',
      '@@ -10,4 +10,4 @@',
      '…',
      ' def unit_price(total: float, count: int) -> float:',
      '-    return total / count',
      '+    return round(total / count, 2)',
    ].join('\n'),
  },
  discard_session: {
    args: { session_id: 'sim_810f6b45-1b5c-4637-bc4b-e037fefebd49' },
    result: 'Discarded 1 edit(s) of session sim_810f6b45-1b5c-4637-bc4b-e037fefebd49; disk and server are as before.',
  },
  destroy_session: {
    args: { session_id: 'sim_810f6b45-1b5c-4637-bc4b-e037fefebd49' },
    result: 'Session sim_810f6b45-1b5c-4637-bc4b-e037fefebd49 destroyed.',
  },
  ...SYMBOL_TOOL_EXAMPLES,
  ...SYMNAV_EXAMPLES,
  ...FIXES_EXAMPLES,
  ...SKILL_PHASES_EXAMPLES,
  ...BUILD_TOOL_EXAMPLES,
  ...PREFETCH_EXAMPLES,
};
