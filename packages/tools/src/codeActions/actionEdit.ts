import type { CodeAction, Command, WorkspaceEdit } from 'vscode-languageserver-protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { readCurrent, unifiedDiff, type FileChange } from '@agent-lsp/session';
import type { ToolContext } from '../catalog/toolDefinition.js';
import { changeKind, type FileChangeOut } from '../output/writeResult.js';

/** Changed lines shown per file in a preview; the count says how many more there are. */
const PREVIEW_LINES = 8;
/** A preview line is cut here (a minified file's one line must not fill the answer). */
const PREVIEW_LINE_CHARS = 160;

export function isCommand(a: CodeAction | Command): a is Command {
  return typeof (a as Command).command === 'string';
}

const TS_APPLY_CODE_ACTION = '_typescript.applyCodeActionCommand';

/**
 * The command an action runs after its edit, if any. typescript-language-server attaches
 * `_typescript.applyCodeActionCommand` to every quick fix; it does something (installs packages)
 * only when tsserver's action carries commands, so without them there is no command to run.
 */
export function commandOf(a: CodeAction | Command): Command | undefined {
  const cmd = isCommand(a) ? a : a.command;
  if (!cmd) return undefined;
  if (cmd.command === TS_APPLY_CODE_ACTION) {
    const tsAction = (cmd.arguments?.[0] as { action?: { commands?: unknown[] } } | undefined)?.action;
    if (!tsAction?.commands?.length) return undefined;
  }
  return cmd;
}

/** Whether the server will give this action's edit only through codeAction/resolve. */
export function needsResolve(conn: LspConnection, a: CodeAction | Command): boolean {
  if (isCommand(a) || a.edit) return false;
  const provider = conn.capabilities.codeActionProvider;
  return typeof provider === 'object' && provider.resolveProvider === true && a.data !== undefined;
}

/** The action with its edit filled in by the server (codeAction/resolve) when it comes only that way. */
export async function resolved(conn: LspConnection, a: CodeAction | Command, signal: AbortSignal): Promise<CodeAction | Command> {
  if (!needsResolve(conn, a)) return a;
  const full = await conn.request<CodeAction | null>('codeAction/resolve', a, { signal });
  return full ?? a;
}

export interface FilePreview {
  file: string;
  change: FileChangeOut['change'];
  /** Changed lines, `-12 old text` / `+12 new text` (line numbers before and after). */
  lines: string[];
  more_lines?: number;
}

function cut(line: string): string {
  return line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS)}…` : line;
}

/** The removed and added lines of a unified diff, numbered, at most PREVIEW_LINES. */
export function changedLines(diff: string): { lines: string[]; more: number } {
  const out: string[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
    } else if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('\\')) {
      continue;
    } else if (line.startsWith('-')) out.push(cut(`-${oldLine++} ${line.slice(1)}`));
    else if (line.startsWith('+')) out.push(cut(`+${newLine++} ${line.slice(1)}`));
    else if (line.startsWith(' ')) {
      oldLine++;
      newLine++;
    }
  }
  return { lines: out.slice(0, PREVIEW_LINES), more: Math.max(0, out.length - PREVIEW_LINES) };
}

/** What an edit would do to each file, planned on the disk as it is now. Invalid edits throw (nothing is written). */
export function planEdit(ctx: ToolContext, edit: WorkspaceEdit): FileChange[] {
  const plan = ctx.ledger.transactions.newPlan();
  plan.applyWorkspaceEdit(edit);
  return plan.changes();
}

/** A compact preview of planned changes: per file, the lines that change. */
export function previewOf(ctx: ToolContext, changes: readonly FileChange[]): FilePreview[] {
  return changes.map((c) => {
    const before = readCurrent(c.path);
    const file = ctx.workspace.display(c.path);
    const { lines, more } = changedLines(unifiedDiff(file, before, c.content));
    return { file, change: changeKind(before, c.content), lines, ...(more ? { more_lines: more } : {}) };
  });
}
