import type { DiskState, LspConnection, ServerDefinition } from '@agent-lsp/lsp';
import type { BaselineCache } from './baselineCache.js';
import type { Baseline } from './overlay.js';

/** The shapes an evaluation works with, shared by the evaluator and its workspace steps. */

/** How a workspace-scope evaluation reached the files that depend on the edits. */
export interface DependentsSearch {
  /** Dependent files found. */
  found: number;
  /** Found but not evaluated: the time budget ran out before their baseline was taken. */
  unreached: string[];
  /** Why the search may have missed dependents (a server error, no references support, the budget). */
  problems: string[];
  budgetMs: number;
}

/** Points where a test (and only a test, through the composition root) may step in. */
export interface EvaluationHooks {
  /** The overlay is in the server's buffers and settling is about to start; the section is held. */
  overlayPushed?(): Promise<void>;
  /** The longest step of a workspace evaluation (EVALUATION_STEP_MS; `Infinity`: one section, as a reference). */
  stepMs?: number;
}

export interface EvaluationTarget {
  conn: LspConnection;
  server: ServerDefinition;
  roots: readonly string[];
  cache: BaselineCache;
  hooks?: EvaluationHooks | undefined;
}

/** A file that depends on the edits, with the baseline of its on-disk text. */
export interface Dependent {
  path: string;
  uri: string;
  languageId: string;
  text: string;
  /** The file as `text` was read from it: the server is given the disk's text, which changes nothing for the other files. */
  disk?: DiskState;
  baseline: Baseline;
}
