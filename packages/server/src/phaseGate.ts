import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { AgentLedger } from '@agent-lsp/session';
import type { SkillPhaseTracker } from '@agent-lsp/skills';

/** Added to a result that went through out of the active skill's phase order (warn mode). */
export const phaseWarningOutput = {
  phase_warning: z.string().optional().describe('Set when the call was out of the active skill\'s phase order (activate_skill, warn mode).'),
};

/**
 * Runs one tool call under the active skill's phase order: refused without running in block mode,
 * run with the warning added to its result in warn mode, and recorded so the phase advances.
 */
export async function runInPhase(
  phases: SkillPhaseTracker,
  tool: string,
  args: Record<string, unknown>,
  run: () => Promise<CallToolResult>,
  onRefused: (message: string) => void = () => undefined,
): Promise<CallToolResult> {
  const verdict = phases.check(tool, args);
  if (verdict.action === 'refuse') {
    onRefused(verdict.message);
    return { isError: true, content: [{ type: 'text', text: verdict.message }] };
  }
  const result = await run();
  phases.record(tool, args, result.isError !== true);
  if (verdict.action === 'run') return result;
  const content = [{ type: 'text' as const, text: verdict.message }, ...result.content];
  if (result.structuredContent === undefined) return { ...result, content };
  return { ...result, content, structuredContent: { ...result.structuredContent, phase_warning: verdict.message } };
}

/** The phase check of one MCP server: refused calls land in the audit log like every other call. */
export function phaseGate(phases: SkillPhaseTracker, ledger: AgentLedger) {
  return (tool: string, args: Record<string, unknown>, run: () => Promise<CallToolResult>): Promise<CallToolResult> =>
    runInPhase(phases, tool, args, run, (message) => ledger.finishCall(ledger.startCall(tool), args, 'error', message));
}
