import { ok, type AgentLspClient, type ToolAnswer } from './mcpClient.js';

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

/** What an evaluation (preview_edit, evaluate_session) concluded, without its timings: two runs of one edit compare equal. */
export interface EvaluationConclusion {
  introduced: string[];
  resolved: string[];
  net_delta: unknown;
  confidence: unknown;
  /** "<file> <examined>", sorted. */
  files: string[];
  dependents: { found: unknown; examined: unknown; not_examined: unknown };
  changed_declarations: unknown;
}

export function evaluationConclusion(answer: ToolAnswer): EvaluationConclusion {
  const data = ok(answer);
  const key = (d: { file: string; line: number; message: string }) => `${d.file}:${d.line}: ${d.message}`;
  const sorted = (list: unknown) => (list as { file: string; line: number; message: string }[]).map(key).sort();
  const dependents = data['dependents'] as Record<string, unknown>;
  return {
    introduced: sorted(data['errors_introduced']),
    resolved: sorted(data['errors_resolved']),
    net_delta: data['net_delta'],
    confidence: data['confidence'],
    files: ((data['files'] ?? []) as { file: string; examined: boolean }[]).map((f) => `${f.file} ${f.examined}`).sort(),
    dependents: { found: dependents['found'], examined: dependents['examined'], not_examined: dependents['not_examined'] },
    changed_declarations: data['changed_declarations'],
  };
}
