import { NotReadyYet, type LspConnection, type ProgressInfo } from '@agent-lsp/lsp';
import { DEFAULT_READY_TIMEOUT_S } from '../catalog/schemas.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

export interface NotReadyResult {
  ready: false;
  state: string;
  progress?: ProgressInfo;
}

export interface ReadinessArgs {
  wait_for_ready?: boolean | undefined;
  ready_timeout_seconds?: number | undefined;
}

function describe(p: ProgressInfo | undefined): string {
  if (!p) return 'indexing';
  return [p.title, p.message].filter(Boolean).join(': ') || 'indexing';
}

/**
 * Waits until the server gives complete answers, reporting its progress meanwhile; or, when the
 * caller asked not to wait, returns the not-ready state. Never lets a partial answer through.
 */
export async function awaitReady(conn: LspConnection, args: ReadinessArgs, ctx: ToolContext): Promise<NotReadyResult | undefined> {
  const snap = conn.readiness.snapshot();
  if (snap.ready) return undefined;
  if (args.wait_for_ready === false) {
    return { ready: false, state: snap.state, ...(snap.progress ? { progress: snap.progress } : {}) };
  }
  const timeoutMs = (args.ready_timeout_seconds ?? DEFAULT_READY_TIMEOUT_S) * 1000;
  // A connection that goes away never becomes ready: the wait ends with its failure (a broker
  // gone is retried on the next connection by the call's runner), not at the timeout.
  if (conn.failure) throw conn.failure;
  const gone = new AbortController();
  const sub = conn.onCrash((err) => gone.abort(err));
  try {
    await conn.readiness.waitReady({
      timeoutMs,
      signal: AbortSignal.any([ctx.signal, gone.signal]),
      onUpdate: (s) => {
        const report: { message: string; percentage?: number } = { message: `${conn.server.displayName}: ${describe(s.progress)}` };
        if (s.progress?.percentage !== undefined) report.percentage = s.progress.percentage;
        ctx.reportProgress(report);
      },
    });
    return undefined;
  } catch (err) {
    if (err instanceof NotReadyYet) {
      return { ready: false, state: err.snapshot.state, ...(err.snapshot.progress ? { progress: err.snapshot.progress } : {}) };
    }
    throw err;
  } finally {
    sub.dispose();
  }
}

export function notReadyText(r: NotReadyResult): string {
  const pct = r.progress?.percentage !== undefined ? ` (${r.progress.percentage}%)` : '';
  return `Not ready: the language server is ${r.state}${r.progress ? ` — ${describe(r.progress)}${pct}` : ''}. Call again (with wait_for_ready true, the default) to wait for a complete answer.`;
}
