import { z } from 'zod';
import { UserError } from '@agent-lsp/protocol';
import type { LspConnection, PartialMark } from '@agent-lsp/lsp';

/**
 * A server ready on an index of part of the workspace (ReadinessSnapshot.partial: pyrefly's walk
 * stopped short, clangd gave up on building a changed file): its workspace-wide answers may miss
 * or misplace whatever lies outside that index. Read after the answer came, and since `asked` (the
 * moment the question was let through: ReadyDocument.asked), when given: an index partial then and
 * whole now may have given the answer.
 */
export function indexPartial(conn: LspConnection, asked?: PartialMark): string | undefined {
  return asked ? conn.readiness.partialSince(asked) : conn.readiness.snapshot().partial;
}

export const partialIndexOutput = {
  partial: z.string().optional().describe('The server answered from an index that misses part of the workspace (what it misses, what to do); the answer is not complete.'),
};

/** An answer's fields when the server's index is partial: not complete, and what it misses. */
export function partialIndexFields(conn: LspConnection, asked?: PartialMark): { complete?: false; partial?: string } {
  const partial = indexPartial(conn, asked);
  return partial !== undefined ? { complete: false, partial } : {};
}

/** The first line of an answer from a partial index. */
export function partialIndexText(partial: string | undefined): string {
  return partial !== undefined ? `INCOMPLETE: the server answered from an index that misses part of the workspace: ${partial}\n` : '';
}

/** An edit computed from a partial index would miss (or misplace) what the index lacks: none is made. */
export function refuseEditOnPartialIndex(conn: LspConnection, tool: string, asked?: PartialMark): void {
  const partial = indexPartial(conn, asked);
  if (partial === undefined) return;
  throw new UserError('server_failed', `${tool}: nothing was changed. ${conn.server.displayName}'s index misses part of the workspace, so its edit could miss or misplace places there: ${partial}`);
}
