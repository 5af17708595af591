import { assistTools } from './tools/assist.js';
import { buildTestTools } from './tools/buildTest.js';
import { checkpointTools } from './tools/checkpoints.js';
import { getDaemonStatus } from './tools/daemons.js';
import { diagnosticsTools } from './tools/diagnostics.js';
import { documentTools } from './tools/documents.js';
import { editingTools } from './tools/editing.js';
import { lifecycleTools } from './tools/lifecycle.js';
import { navigationTools } from './tools/navigation.js';
import { refactoringTools } from './tools/refactoring.js';
import { simulationTools } from './tools/simulation.js';
import { simulationEndTools } from './tools/simulationEnd.js';
import { symbolTools } from './tools/symbols.js';
import { getTestsForFile } from './tools/testsForFile.js';
import type { AnyToolDefinition, ToolGroup } from './toolDefinition.js';

/** Every tool agent-lsp offers, in the order clients list them. */
export const TOOL_CATALOG: readonly AnyToolDefinition[] = [
  ...lifecycleTools,
  getDaemonStatus,
  ...documentTools,
  ...diagnosticsTools,
  ...navigationTools,
  ...symbolTools,
  ...assistTools,
  ...editingTools,
  ...refactoringTools,
  ...checkpointTools,
  ...simulationTools,
  ...simulationEndTools,
  ...buildTestTools,
  getTestsForFile,
];

export const TOOL_GROUPS: readonly ToolGroup[] = ['lifecycle', 'navigation', 'analysis', 'workspace', 'editing', 'simulation', 'build'];

/** The tools of the given groups (all when none are given). */
export function selectTools(groups?: readonly string[]): AnyToolDefinition[] {
  if (!groups || groups.length === 0) return [...TOOL_CATALOG];
  return TOOL_CATALOG.filter((t) => groups.includes(t.group));
}
