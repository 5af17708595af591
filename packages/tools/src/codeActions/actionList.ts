import type { CodeAction, Command, Diagnostic, Range } from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';
import type { ReadyDocument } from '../project/documentQuery.js';
import type { ToolContext } from '../catalog/toolDefinition.js';
import { isCommand } from './actionEdit.js';
import { settledDiagnostics } from '../project/settledDiagnostics.js';

export interface OfferedActions {
  /** The settled diagnostics overlapping the range (server form). */
  diagnostics: Diagnostic[];
  /** The server's actions, disabled ones left out, preferred quick fixes first. */
  actions: (CodeAction | Command)[];
}

function overlaps(d: Diagnostic, range: Range): boolean {
  return (
    (d.range.start.line < range.end.line || (d.range.start.line === range.end.line && d.range.start.character <= range.end.character)) &&
    (d.range.end.line > range.start.line || (d.range.end.line === range.start.line && d.range.end.character >= range.start.character))
  );
}

function rank(a: CodeAction | Command): number {
  if (isCommand(a)) return 3;
  return a.isPreferred ? 0 : a.kind?.startsWith('quickfix') ? 1 : 2;
}

/**
 * The code actions the server offers for a range of the document (on the text it holds, which the
 * caller synced with the disk), given the settled diagnostics there. `only` narrows to a kind:
 * some servers offer source actions (organize imports) only when asked for them by kind.
 */
export async function offeredActions(ctx: ToolContext, doc: ReadyDocument, range: Range, only?: string): Promise<OfferedActions> {
  const { conn, uri } = doc.handle;
  const lacking = only !== undefined && kindCovers('refactor', only) ? conn.server.lacks?.['refactor'] : undefined;
  if (lacking) throw new UserError('not_supported', `${lacking}.`);
  const settled = await settledDiagnostics(ctx, conn, uri, 15_000);
  const diagnostics = settled.diagnostics.filter((d) => overlaps(d, range));
  // typescript-language-server offers "fix all in file" only for diagnostics it has published
  // itself, which may come after tsserver's exact answer (a file written a moment ago).
  if (diagnostics.length > 0 && conn.server.exactDiagnostics === 'tsserver' && !conn.supportsPullDiagnostics()) await conn.diagnostics.publishedForText(uri, 10_000);
  // A listing only (resolving and executing are never cached): predictionRules.ts's
  // diagnostics→code actions rule builds these same params.
  const result = await ctx.workspace.query<(CodeAction | Command)[] | null>(
    conn,
    'textDocument/codeAction',
    { textDocument: { uri }, range, context: { diagnostics, triggerKind: 1, ...(only ? { only: [only] } : {}) } },
    ctx.signal,
  );
  // Disabled actions are ones the server says do not apply here.
  const actions = (result ?? []).filter((a) => isCommand(a) || !a.disabled).filter((a) => !only || kindMatches(a, only));
  actions.sort((a, b) => rank(a) - rank(b));
  return { diagnostics, actions };
}

/** Whether `kind` is `family` or a sub-kind of it (`refactor.extract` is a `refactor`). */
function kindCovers(family: string, kind: string): boolean {
  return kind === family || kind.startsWith(`${family}.`);
}

/** Whether an action is of `kind` or a sub-kind of it (`source.organizeImports.ts` is a `source.organizeImports`). */
export function kindMatches(a: CodeAction | Command, kind: string): boolean {
  if (isCommand(a) || !a.kind) return false;
  return a.kind === kind || a.kind.startsWith(`${kind}.`);
}

/** The whole document as a range (apply_fix without one). */
export function wholeDocument(text: string): Range {
  const lines = text.split('\n');
  return { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: (lines[lines.length - 1] ?? '').length } };
}
