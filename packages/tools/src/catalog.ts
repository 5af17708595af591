import { assistTools } from './tools/assist.js';
import { buildTestTools } from './tools/buildTest.js';
import { checkpointTools } from './tools/checkpoints.js';
import { getDaemonStatus } from './tools/daemons.js';
import { getDocumentHighlights } from './tools/highlights.js';
import { getInlayHints } from './tools/inlayHints.js';
import { setLogLevel } from './tools/logLevel.js';
import { prepareRename } from './tools/prepareRename.js';
import { getSemanticTokens } from './tools/semanticTokens.js';
import { impactTools } from './tools/impactTools.js';
import { diagnosticsTools } from './tools/diagnostics.js';
import { documentTools } from './tools/documents.js';
import { editingTools } from './tools/editing.js';
import { fixTools } from './tools/applyFix.js';
import { replaceInFiles } from './tools/replaceInFiles.js';
import { safeApplyEdit } from './tools/safeEdit.js';
import { didChangeWatchedFiles } from './tools/watchedFiles.js';
import { lifecycleTools } from './tools/lifecycle.js';
import { navigationTools } from './tools/navigation.js';
import { refactoringTools } from './tools/refactoring.js';
import { simulationTools } from './tools/simulation.js';
import { simulationEndTools } from './tools/simulationEnd.js';
import { skillPhaseTools } from './tools/skillPhases.js';
import { symbolTools } from './tools/symbols.js';
import { getSymbolDocumentation } from './tools/symbolDocs.js';
import { insertAfterSymbol, insertBeforeSymbol, replaceSymbolBody } from './tools/symbolEdit.js';
import { safeDeleteSymbol } from './tools/symbolDelete.js';
import { getSymbolSource } from './tools/symbolSource.js';
import { goToSymbol } from './tools/goToSymbol.js';
import { getTestsForFile } from './tools/testsForFile.js';
import { getSpeculationStats } from './tools/speculationStats.js';
import { cacheArtifactTools } from './tools/cacheArtifacts.js';
import type { AnyToolDefinition, ToolGroup } from './catalog/toolDefinition.js';

/** Every tool agent-lsp offers, in the order clients list them. */
export const TOOL_CATALOG: readonly AnyToolDefinition[] = [
  ...lifecycleTools,
  getDaemonStatus,
  ...documentTools,
  ...diagnosticsTools,
  ...navigationTools,
  ...symbolTools,
  getSymbolSource,
  goToSymbol,
  getSymbolDocumentation,
  ...impactTools,
  ...assistTools,
  ...editingTools,
  ...fixTools,
  safeApplyEdit,
  replaceInFiles,
  didChangeWatchedFiles,
  ...cacheArtifactTools,
  ...refactoringTools,
  replaceSymbolBody,
  insertBeforeSymbol,
  insertAfterSymbol,
  safeDeleteSymbol,
  ...checkpointTools,
  ...simulationTools,
  ...simulationEndTools,
  getDocumentHighlights,
  prepareRename,
  getInlayHints,
  getSemanticTokens,
  setLogLevel,
  ...skillPhaseTools,
  ...buildTestTools,
  getTestsForFile,
  getSpeculationStats,
];

export const TOOL_GROUPS: readonly ToolGroup[] = ['lifecycle', 'navigation', 'analysis', 'workspace', 'editing', 'simulation', 'skills', 'build'];

/** The tools of the given groups (all when none are given). */
export function selectTools(groups?: readonly string[]): AnyToolDefinition[] {
  if (!groups || groups.length === 0) return [...TOOL_CATALOG];
  return TOOL_CATALOG.filter((t) => groups.includes(t.group));
}
