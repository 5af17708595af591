import { z } from 'zod';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

const ruleStats = z.object({ predicted: z.number(), launched: z.number(), hits: z.number(), unused: z.number(), wasted_ms: z.number(), hit_rate: z.number() });

export const getSpeculationStats = defineTool({
  name: 'get_speculation_stats',
  title: 'Speculation stats',
  description: 'How well speculative prefetch guesses the next queries: hits, misses, ms saved and wasted, per rule.',
  group: 'workspace',
  concurrency: 'none',
  input: () => ({}),
  output: () => ({
    enabled: z.boolean(),
    predictions: z.number(),
    launched: z.number(),
    hits: z.number(),
    partial_hits: z.number().describe('Calls that joined a speculation on its way.'),
    misses: z.number(),
    dropped: z.number(),
    wasted_ms: z.number(),
    latency_saved_ms: z.number(),
    in_flight: z.number(),
    threshold: z.number(),
    hit_rate: z.number(),
    cache_entries: z.number(),
    cache_bytes: z.number(),
    rules: z.record(z.string(), ruleStats),
  }),
  annotations: READ_ONLY,
  handler: (_args, ctx) => Promise.resolve(ctx.workspace.prefetch.snapshot()),
  text: (r) => {
    if (!r.enabled) return 'Prefetch is off (--prefetch off or AGENT_LSP_PREFETCH=off).';
    const rules = Object.entries(r.rules).map(([name, s]) => `  ${name}: ${s.hits}/${s.launched} hit, ${s.unused} unused, ${s.wasted_ms} ms wasted (${s.predicted} predicted)`);
    return [
      `Hit rate ${Math.round(r.hit_rate * 100)}%: ${r.hits} hit(s), ${r.partial_hits} partial, ${r.misses} miss(es); ${r.launched} of ${r.predictions} prediction(s) launched at threshold ${r.threshold}, ${r.dropped} dropped.`,
      `Saved ${r.latency_saved_ms} ms; wasted ${r.wasted_ms} ms; cache ${r.cache_entries} entries, ${r.cache_bytes} bytes.`,
      ...rules,
    ].join('\n');
  },
});
