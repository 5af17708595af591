import { ok, type AgentLspClient } from './mcpClient.js';

/** What get_speculation_stats answers, as far as the tests read it. */
export type SpeculationStats = Record<string, unknown> & {
  enabled: boolean;
  hits: number;
  partial_hits: number;
  misses: number;
  launched: number;
  in_flight: number;
  rules: Record<string, { hits: number; launched: number }>;
};

export async function speculationStats(agent: AgentLspClient): Promise<SpeculationStats> {
  return ok(await agent.call('get_speculation_stats', {})) as SpeculationStats;
}

/** The agent's think time: until no speculation is on its way (at once with prefetch off). */
export async function think(agent: AgentLspClient): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await speculationStats(agent)).in_flight === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('speculations never settled');
}
