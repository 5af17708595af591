import { z } from 'zod';
import type { Diagnostic, TextEdit } from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';
import type { LspConnection } from '@agent-lsp/lsp';
import { addEditedRegion, diffDiagnostics } from '@agent-lsp/session';
import { diagnosticText } from '../output/diagnosticText.js';
import { PositionMapper } from '../output/locations.js';
import { diagnostic, type DiagnosticOut } from '../catalog/schemas.js';
import type { SymbolTarget } from './symbolTarget.js';
import type { ToolContext } from '../catalog/toolDefinition.js';
import { writeOrPreview, writeOutput, writeText, type WriteOut } from '../output/writeResult.js';

const SETTLE_TIMEOUT_MS = 30_000;

/** Settled diagnostics of an open document; what was last pushed when settling times out. */
async function settled(conn: LspConnection, uri: string): Promise<Diagnostic[]> {
  try {
    return (await conn.diagnostics.settle(uri, SETTLE_TIMEOUT_MS)).diagnostics;
  } catch {
    return conn.diagnostics.lastPushed().get(uri) ?? [];
  }
}

export const symbolWriteOutput = {
  ...writeOutput,
  symbol: z.string().optional(),
  errors_after: z.array(diagnostic).optional().describe('Errors the write introduced (settled, diffed against before).'),
  warnings_after: z.array(diagnostic).optional(),
  resolved: z.number().optional().describe('Diagnostics it removed.'),
};

export interface SymbolWriteOut extends WriteOut {
  symbol: string;
  errors_after: DiagnosticOut[];
  warnings_after: DiagnosticOut[];
  resolved: number;
}

/**
 * Writes one edit of the target's file as a checkpointed transaction and reports what it did to
 * the diagnostics: the file's settled diagnostics before and after, diffed as speculative
 * sessions diff them (ranges mapped through the edit, multiset identity).
 */
export async function writeSymbolEdit(ctx: ToolContext, target: SymbolTarget, edit: TextEdit, dependents: readonly string[] = []): Promise<SymbolWriteOut> {
  const { conn, uri, path } = target.doc.handle;
  const others: { conn: LspConnection; uri: string; before: Diagnostic[] }[] = [];
  for (const p of dependents) {
    const handle = await ctx.workspace.openDocument(p);
    if (handle.uri !== uri) others.push({ conn: handle.conn, uri: handle.uri, before: await settled(handle.conn, handle.uri) });
  }
  const before = await settled(conn, uri);
  const out = await writeOrPreview(ctx, false, (plan) => {
    // The edit was computed on the text the server holds; a file changed since then gets none of it.
    if (plan.current(path)?.toString('utf8') !== target.doc.handle.doc.text) {
      throw new UserError('conflict', `${target.doc.label} changed on disk while the edit was being prepared; nothing was written. Call the tool again.`);
    }
    plan.applyTextEdits(path, [edit]);
  });
  // The transaction put the disk's new text into the server's buffer; these describe it.
  const after = out.applied ? await settled(conn, uri) : before;
  const diff = out.applied ? diffDiagnostics(before, [edit], after, addEditedRegion([], edit)) : { introduced: [], resolved: [] };
  const mapper = new PositionMapper(ctx.workspace, conn);
  const introduced = diff.introduced.map((d) => mapper.diagnostic(uri, d));
  let resolved = diff.resolved.length;
  // Files that use what was edited (a forced delete's callers): unchanged text, new diagnostics.
  for (const o of out.applied ? others : []) {
    const d = diffDiagnostics(o.before, [], await settled(o.conn, o.uri), []);
    const m = new PositionMapper(ctx.workspace, o.conn);
    introduced.push(...d.introduced.map((x) => m.diagnostic(o.uri, x)));
    resolved += d.resolved.length;
  }
  return {
    ...out,
    symbol: target.qualified,
    errors_after: introduced.filter((d) => d.severity === 'error'),
    warnings_after: introduced.filter((d) => d.severity === 'warning'),
    resolved,
  };
}

export function symbolWriteText(r: Partial<Omit<SymbolWriteOut, 'ready'>>): string {
  const lines = [writeText(r)];
  const errors = r.errors_after ?? [];
  const warnings = r.warnings_after ?? [];
  if (r.applied) {
    lines.push(errors.length + warnings.length === 0 ? `No new errors or warnings${r.resolved ? ` (${r.resolved} diagnostic(s) resolved)` : ''}.` : `The write introduced ${errors.length} error(s) and ${warnings.length} warning(s):`);
    lines.push(...[...errors, ...warnings].map((d) => diagnosticText(d)));
  }
  return lines.join('\n');
}
