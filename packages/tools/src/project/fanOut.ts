import { z } from 'zod';
import type { LspConnection, ServerDefinition } from '@agent-lsp/lsp';

/** One server asked by a query that goes to several: what it contributed, or why it could not. */
export const serverOutcomeOutput = z.object({
  language: z.string(),
  server: z.string(),
  error: z.string().optional().describe('Why this server gave no answer; the result holds the other servers\' answers and is not complete.'),
  partial: z.string().optional().describe('This server answered from an index that misses part of the workspace (what it misses, what to do); the result is not complete.'),
});
export type ServerOutcome = z.infer<typeof serverOutcomeOutput>;

/** Long enough for the cause, short of a server's stack trace. */
const MAX_ERROR_CHARS = 300;

function errorLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const first = message.split('\n').find((l) => l.trim() !== '')?.trim() ?? 'failed';
  return first.length > MAX_ERROR_CHARS ? `${first.slice(0, MAX_ERROR_CHARS)}…` : first;
}

/** A server's entry in `servers`: with the first line of its error when it failed. */
export function serverOutcome(server: ServerDefinition, err?: unknown): ServerOutcome {
  const out: ServerOutcome = { language: server.languageIds[0] ?? server.id, server: server.displayName };
  if (err !== undefined) out.error = errorLine(err);
  return out;
}

export interface FanOutResult<T> {
  values: T[];
  servers: ServerOutcome[];
  /** true when every server answered. */
  allAnswered: boolean;
  /** true when every server answered from an index of the whole workspace (none is `partial`). */
  complete: boolean;
}

/**
 * Asks every server (started on demand) and keeps each one's answer apart: a server that fails to
 * start or to answer becomes an `error` in `servers`, never the failure of the others' answer.
 * A `stop` value (not ready, when the caller asked not to wait) ends the fan-out at once.
 * Cancellation is not a server's failure: it propagates.
 */
export async function fanOut<T, S>(
  servers: readonly ServerDefinition[],
  connect: (server: ServerDefinition) => Promise<LspConnection>,
  ask: (conn: LspConnection) => Promise<{ value: T } | { stop: S }>,
  signal: AbortSignal,
): Promise<FanOutResult<T> | { stop: S }> {
  const settled = await Promise.all(
    servers.map(async (server) => {
      try {
        const conn = await connect(server);
        const answer = await ask(conn);
        return { server, answer, partial: conn.readiness.snapshot().partial };
      } catch (err) {
        if (signal.aborted) throw err;
        return { server, err: err ?? new Error('failed') };
      }
    }),
  );
  const values: T[] = [];
  const outcomes: ServerOutcome[] = [];
  for (const s of settled) {
    if ('err' in s) {
      outcomes.push(serverOutcome(s.server, s.err));
      continue;
    }
    if ('stop' in s.answer) return { stop: s.answer.stop };
    values.push(s.answer.value);
    outcomes.push({ ...serverOutcome(s.server), ...(s.partial ? { partial: s.partial } : {}) });
  }
  const allAnswered = outcomes.every((o) => o.error === undefined);
  return { values, servers: outcomes, allAnswered, complete: allAnswered && outcomes.every((o) => o.partial === undefined) };
}

/** The text lines that make a failed or partial server visible to an agent that reads only the text. */
export function failedServersText(servers: readonly ServerOutcome[] | undefined): string[] {
  return (servers ?? []).flatMap((s) => [
    ...(s.error !== undefined ? [`INCOMPLETE: ${s.server} (${s.language}) gave no answer: ${s.error}`] : []),
    ...(s.partial !== undefined ? [`INCOMPLETE: ${s.server} (${s.language}) searched part of the workspace: ${s.partial}`] : []),
  ]);
}
