import { z } from 'zod';
import { AGENT_SEVERITIES, type AgentDiagnostic } from '@agent-lsp/protocol';

/** Root-relative or absolute (the server's instructions say so once, for every tool). */
export const filePath = z.string();

/**
 * A 1-based line or column. The MCP SDK validates arguments before any handler runs and passes
 * zod's message on to the agent, so the message itself must say what is wrong.
 */
export function oneBased(name: string) {
  const message = `${name} must be a whole number ≥ 1: lines and columns are 1-based (the first line is 1 and a line's first character is column 1, as an editor or \`cat -n\` shows them)`;
  return z.number({ error: message }).int({ error: message }).min(1, { error: message });
}

const positionPattern = z.string().optional();
/** position_pattern where no line scope narrows it. */
export const unscopedPositionPattern = positionPattern.describe('Or: a unique snippet, @@ at the cursor.');

/** On ~20 tools: line_scope_* are named in position_pattern's description rather than described each (docs/tools.md explains them). */
export const positionInput = {
  file_path: filePath,
  line: oneBased('line').optional(),
  column: oneBased('column').optional(),
  position_pattern: positionPattern.describe('Or: a snippet unique in the file (or in line_scope_start–end), @@ at the cursor.'),
  line_scope_start: oneBased('line_scope_start').optional(),
  line_scope_end: oneBased('line_scope_end').optional(),
};

/** 1-based as every position (their minimum says so, and the instructions). */
export const rangeInput = {
  file_path: filePath,
  start_line: oneBased('start_line'),
  start_column: oneBased('start_column').describe('In characters.'),
  end_line: oneBased('end_line'),
  end_column: oneBased('end_column').describe('Exclusive.'),
};

/** How long a query waits for its server's indexing when ready_timeout_seconds is not given. */
export const DEFAULT_READY_TIMEOUT_S = 300;

/**
 * On ~40 tools, so listed by name and default alone (`meta`: the default is shown in the listing,
 * not filled in); what `wait_for_ready: false` answers is said once, in the server's instructions
 * and docs/tools.md.
 */
export const readinessInput = {
  wait_for_ready: z.boolean().optional().meta({ default: true }),
  ready_timeout_seconds: z.number().positive().optional().meta({ default: DEFAULT_READY_TIMEOUT_S }),
};

export const pagingInput = {
  limit: z.number().int().positive().optional(),
  // Described: beside line and column, an offset could be taken for a character offset.
  offset: z.number().int().nonnegative().optional().describe('Items to skip.'),
};

export const progressOutput = z
  .object({ title: z.string().optional(), message: z.string().optional(), percentage: z.number().optional() })
  .describe('What the server is doing while not ready.');

/** Every result carries readiness, so one output schema covers ready and not-ready answers. */
export const readyOutput = {
  ready: z.boolean().describe('false when the server was still indexing and the caller asked not to wait.'),
  progress: progressOutput.optional(),
  state: z.string().optional().describe('Server state when not ready: starting | indexing.'),
};

export const location = z.object({
  file: z.string().describe('Root-relative path (absolute when outside the workspace).'),
  line: z.number(),
  column: z.number(),
  end_line: z.number(),
  end_column: z.number(),
});
export type LocationOut = z.infer<typeof location>;

export const diagnostic = z.object({
  file: z.string(),
  line: z.number(),
  column: z.number(),
  end_line: z.number(),
  end_column: z.number(),
  severity: z.enum(AGENT_SEVERITIES),
  code: z.union([z.string(), z.number()]).optional(),
  source: z.string().optional(),
  message: z.string(),
});
/** The one diagnostic shape (protocol's AgentDiagnostic); this schema describes it. */
export type DiagnosticOut = AgentDiagnostic;

export const pagingOutput = {
  total: z.number().optional().describe('How many items exist in all.'),
  complete: z.boolean().optional().describe('true when this page holds every remaining item and the server was ready.'),
  offset: z.number().optional(),
  limit: z.number().optional(),
  returned: z.number().optional(),
};

/**
 * Added to every result while the workspace root was inferred from a file path (no start_lsp,
 * --root or client roots), so an agent can see which project the answer covers.
 */
export const inferredRootOutput = {
  workspace_root: z.string().optional().describe('The workspace root this answer used, when agent-lsp inferred it from a file path.'),
  root_inferred: z.boolean().optional().describe('true when workspace_root was inferred (call start_lsp with root_dir to set it).'),
};

/** The line the text form of an answer on an inferred root ends with. */
export function inferredRootText(root: string): string {
  return `(workspace root inferred from the file path: ${root}; call start_lsp with root_dir to choose another)`;
}
