import type { z } from 'zod';
import type { Logger } from '@agent-lsp/lsp';
import type { AgentLedger, ToolCall } from '@agent-lsp/session';
import type { SkillPhaseTracker } from '@agent-lsp/skills';
import type { CallConcurrency, Workspace } from '@agent-lsp/workspace';
import type { RunnerConfig } from '../runners/runnerConfig.js';

export interface ProgressReport {
  message: string;
  /** 0–100 when the server gives a percentage. */
  percentage?: number;
}

/** What a handler may use. Nothing here knows about MCP. */
export interface ToolContext {
  workspace: Workspace;
  /** Transactions, checkpoints and the audit log of this front. */
  ledger: AgentLedger;
  /** This call, as the audit log and checkpoints name it. */
  call: ToolCall;
  signal: AbortSignal;
  logger: Logger;
  /** Called while the handler waits (for readiness); the server layer turns it into MCP progress. */
  reportProgress(report: ProgressReport): void;
  /** The MCP client's log level (set_log_level); absent where no MCP client listens. */
  setLogLevel?(level: LogLevelName): void;
  /** The skill phases of this MCP server instance (absent where no server runs the tools). */
  skillPhases?: SkillPhaseTracker;
  /** Build and test commands from the config file's `runners` section (run_build, run_tests). */
  runners?: RunnerConfig;
}

/** MCP's log levels (RFC 5424), least severe first. */
export const LOG_LEVEL_NAMES = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

export type ToolGroup = 'lifecycle' | 'navigation' | 'analysis' | 'workspace' | 'editing' | 'simulation' | 'skills' | 'build';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A tool's fields other than its schemas. */
interface ToolFields<I extends z.ZodRawShape, O extends z.ZodRawShape> {
  name: string;
  /** Other names the tool answers to (the original's short names); callable, not listed in tools/list. */
  aliases?: readonly string[];
  title: string;
  description: string;
  group: ToolGroup;
  annotations: ToolAnnotations;
  /** How the call uses the servers (see CallConcurrency); `shared` when absent. */
  concurrency?: CallConcurrency;
  handler(args: z.infer<z.ZodObject<I>>, ctx: ToolContext): Promise<z.infer<z.ZodObject<O>>>;
  /** The compact text form of a result (what most agents read). */
  text(result: z.infer<z.ZodObject<O>>): string;
}

export interface ToolDefinition<I extends z.ZodRawShape = z.ZodRawShape, O extends z.ZodRawShape = z.ZodRawShape> extends ToolFields<I, O> {
  /** The zod input shape, built on first read (see defineTool). */
  readonly input: I;
  /** The zod output shape, built on first read. */
  readonly output: O;
}

/** What a tool file gives defineTool: its zod shapes as functions that build them. */
export interface ToolSpec<I extends z.ZodRawShape, O extends z.ZodRawShape> extends ToolFields<I, O> {
  input: () => I;
  output: () => O;
}

export type AnyToolDefinition = ToolDefinition<z.ZodRawShape, z.ZodRawShape>;

/**
 * Keeps the input/output types of a tool tied together, and builds its zod shapes on their first
 * read, once: a front builds the schemas of the tools it is called with (tools/list is answered
 * from JSON Schemas made at build time), not ~60 tools' worth of zod objects at start, which were
 * a third of its heap.
 */
export function defineTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(spec: ToolSpec<I, O>): AnyToolDefinition {
  const { input, output, ...fields } = spec;
  const def: ToolDefinition<I, O> = Object.defineProperties(fields, { input: { get: once(input), enumerable: true }, output: { get: once(output), enumerable: true } }) as typeof fields &
    Pick<ToolDefinition<I, O>, 'input' | 'output'>;
  return def;
}

function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Changes agent-lsp's own state (servers, open documents), never files. */
export const STATEFUL: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** Changes a speculative session (in memory only): no file is written. */
export const SIMULATES: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
/** Overwrites files (each call a transaction with a checkpoint); calling twice does not give the same result. */
export const WRITES: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false };
/** Runs the project's own commands (build, tests): writes no source file, but runs code that can do anything. */
export const RUNS: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };
