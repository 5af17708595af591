import type { ToolExample } from '../toolExample.js';

/** Worked examples of the build and test tools on examples/workspace (spread into TOOL_EXAMPLES). */
export const BUILD_TOOL_EXAMPLES: Record<string, ToolExample> = {
  run_build: {
    args: { workspace_dir: 'ts' },
    result: [
      'tsc failed (exit code 2) in 6.1 s. Ran: node tsc --noEmit --pretty false -p /path/to/agent-lsp/examples/workspace/ts (in ts)',
      "- ts/src/report.ts:9:43: TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.",
    ].join('\n'),
  },
  run_tests: {
    args: { workspace_dir: 'py' },
    result: [
      'pytest failed (exit code 5) in 6.6 s. Ran: python3 -m pytest -p no:cacheprovider --color=no -rfE --tb=short (in py)',
      'Output (tail):',
      '…',
      'rootdir: /path/to/agent-lsp/examples/workspace/py',
      'configfile: pyproject.toml',
      'collected 0 items',
      '',
      '============================ no tests ran in 2.81s =============================',
    ].join('\n'),
  },
  get_tests_for_file: {
    args: { file_path: 'py/shop/pricing.py' },
    result: '0 test file(s) for py/shop/pricing.py:',
  },
};
