import type { Position } from 'vscode-languageserver-protocol';
import { startupMark, resolvePositionPattern, toLspPosition, toLspRange, UserError, type UserRange } from '@agent-lsp/protocol';
import type { PartialMark } from '@agent-lsp/lsp';
import type { DocumentHandle } from '@agent-lsp/workspace';
import { untilAnalysed } from './documentAnalysis.js';
import { awaitReady, type NotReadyResult, type ReadinessArgs } from './readinessGate.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

export interface PositionArgs extends ReadinessArgs {
  file_path: string;
  line?: number | undefined;
  column?: number | undefined;
  position_pattern?: string | undefined;
  line_scope_start?: number | undefined;
  line_scope_end?: number | undefined;
}

export interface ReadyDocument {
  handle: DocumentHandle;
  /** The path as shown to the agent. */
  label: string;
  /** The server's index when the question was let through (partialIndex.ts reads what it missed since). */
  asked: PartialMark;
}

/** Resolves the file, opens it in its server (synced with disk) and waits for readiness. */
export async function openReadyDocument(
  ctx: ToolContext,
  args: { file_path: string; language_id?: string | undefined } & ReadinessArgs,
): Promise<ReadyDocument | NotReadyResult> {
  await ctx.workspace.ensureRoots(args.file_path);
  startupMark('document roots ensured');
  const path = ctx.workspace.resolveFile(args.file_path);
  const handle = await ctx.workspace.openDocument(path, args.language_id);
  startupMark('document opened');
  const label = ctx.workspace.display(path);
  const notReady = await awaitReady(handle.conn, args, ctx);
  if (notReady) return notReady;
  const asked = handle.conn.readiness.partialMark();
  startupMark('document server ready');
  // A file can change on disk while we waited; the server must see the current text (a stat
  // tells whether it did; the file is read again only then).
  await ctx.workspace.syncFromDisk([path]);
  startupMark('document synced');
  const doc = handle.conn.documents.get(handle.uri);
  if (doc) {
    const notAnalysed = await untilAnalysed(handle.conn, handle.uri, label);
    return notAnalysed ?? { handle: { ...handle, doc }, label, asked };
  }
  // The document is gone from the server's buffers. A connection that went away took them all
  // with it: that is its failure (a call's runner asks a new broker once), not a removed file.
  if (handle.conn.failure) throw handle.conn.failure;
  // Otherwise it was closed meanwhile (another call) or its file was removed: the disk says which.
  const again = await ctx.workspace.openDocument(path, args.language_id).catch((err: unknown) => {
    if (handle.conn.failure) throw handle.conn.failure;
    throw err;
  });
  if (again.conn !== handle.conn) throw new UserError('server_failed', `${handle.conn.server.displayName} was replaced while agent-lsp waited for it; call again.`);
  return { handle: again, label, asked };
}

/** Refuses, with a message that says what to use instead, a request the server does not offer. */
export function requireSupport(doc: ReadyDocument, method: string, tool: string, alternative?: string): void {
  if (doc.handle.conn.supports(method)) return;
  throw new UserError(
    'not_supported',
    `${doc.handle.conn.server.displayName} does not support ${tool} (${method}) for ${doc.label}.${alternative ? ` Use ${alternative} instead.` : ''}`,
  );
}

export function isNotReady(x: object): x is NotReadyResult {
  return 'ready' in x && (x).ready === false;
}

/** The LSP position for line/column or position_pattern, checked against the file's text. */
export function positionIn(doc: ReadyDocument, args: PositionArgs): Position {
  const text = doc.handle.doc.text;
  if (args.position_pattern !== undefined) {
    const p = resolvePositionPattern(text, args.position_pattern, doc.label, { start: args.line_scope_start, end: args.line_scope_end });
    return toLspPosition(text, p);
  }
  if (args.line_scope_start !== undefined || args.line_scope_end !== undefined) {
    throw new UserError('invalid_argument', 'line_scope_start/line_scope_end narrow position_pattern: pass position_pattern with them, or line and column alone.');
  }
  if (args.line === undefined || args.column === undefined) {
    throw new UserError('invalid_argument', 'Give a position: line and column (1-based), or position_pattern (a snippet with @@ at the cursor).');
  }
  return toLspPosition(text, { line: args.line, column: args.column });
}

export function rangeIn(doc: ReadyDocument, args: { start_line: number; start_column: number; end_line: number; end_column: number }) {
  const r: UserRange = { line: args.start_line, column: args.start_column, end_line: args.end_line, end_column: args.end_column };
  return toLspRange(doc.handle.doc.text, r);
}

