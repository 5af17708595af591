import type { LspConnection } from '@agent-lsp/lsp';
import { documentOf, normalizedParams } from './queryKey.js';
import type { PredictionContext } from './predictionRules.js';

/** The agent's latest queries a prediction must not repeat: it rarely asks the same thing twice running. */
const RECENT_AGENT_QUERIES = 8;
/** Documents whose last position is remembered. */
const POSITIONS_KEPT = 100;

/** Where the agent has been: its latest queries, and the last position it asked about in each document. */
export class AgentTrail {
  private readonly recent: string[] = [];
  private readonly lastPositions = new Map<string, { line: number; character: number }>();
  readonly context: PredictionContext = { lastPosition: (uri) => this.lastPositions.get(uri) };

  /** Remembers the agent's query: predictions do not repeat it, and its position is where the agent stands. */
  note(method: string, params: unknown): void {
    this.recent.push(`${method}\u0000${normalizedParams(params)}`);
    if (this.recent.length > RECENT_AGENT_QUERIES) this.recent.shift();
    const uri = documentOf(params);
    const position = (params as { position?: { line?: unknown; character?: unknown } }).position;
    if (uri && typeof position?.line === 'number' && typeof position.character === 'number') {
      this.lastPositions.delete(uri);
      this.lastPositions.set(uri, { line: position.line, character: position.character });
      if (this.lastPositions.size > POSITIONS_KEPT) this.lastPositions.delete(this.lastPositions.keys().next().value as string);
    }
  }

  askedRecently(method: string, params: unknown): boolean {
    return this.recent.includes(`${method}\u0000${normalizedParams(params)}`);
  }
}

/** A speculation never opens a document: one naming a document must name one the agent opened. */
export function agentHolds(conn: LspConnection, params: unknown): boolean {
  const uri = documentOf(params);
  if (uri === undefined) return true;
  const doc = conn.documents.get(uri);
  return doc !== undefined && !doc.internal && doc.disk !== undefined;
}

/** One tool call seen by the prefetcher. */
export interface CallScope {
  /** Hears of each query of the call answered from the cache (the audit log's mark). */
  onServed: () => void;
  /** Speculations to launch once the call has answered. */
  deferred: (() => void)[];
  closed: boolean;
}
