import type { ToolExample } from '../toolExample.js';

export const CACHE_EXAMPLES: Record<string, ToolExample> = {
  export_cache: {
    args: { dest_path: '.agent-lsp/cache.json.gz' },
    result: "Cache exported to .agent-lsp/cache.json.gz (2 entries, 2 computed on the workspace's files as they are now).",
  },
  import_cache: {
    args: { src_path: '/path/to/other-checkout/.agent-lsp/cache.json.gz' },
    result: [
      "Cache imported from /path/to/other-checkout/.agent-lsp/cache.json.gz (exported from /path/to/other-checkout on build-host): 1 answers taken, 1 of them computed on the workspace's files as they are now; 1 in the cache.",
      "1 answers name files outside the exporting workspace (that machine's libraries): not taken here.",
    ].join('\n'),
  },
};
