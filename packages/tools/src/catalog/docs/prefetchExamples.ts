import type { ToolExample } from '../toolExample.js';

/** Worked examples of the prefetch tools, for docs/tools.md (spread into TOOL_EXAMPLES). */
export const PREFETCH_EXAMPLES: Record<string, ToolExample> = {
  get_speculation_stats: {
    args: {},
    result: [
      'Hit rate 60%: 2 hit(s), 1 partial, 2 miss(es); 4 of 7 prediction(s) launched at threshold 0.5, 0 dropped.',
      'Saved 412 ms; wasted 35 ms; cache 6 entries, 5120 bytes.',
      '  definition→hover: 1/1 hit (2 predicted)',
      '  definition→references: 1/1 hit (2 predicted)',
      '  symbols→hover: 1/2 hit (3 predicted)',
    ].join('\n'),
  },
};
