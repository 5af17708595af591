import type { Logger } from '@agent-lsp/lsp';
import type { Workspace } from '@agent-lsp/workspace';
import { argumentsHash, AuditLog, type AuditEntry } from './auditLog.js';
import { CheckpointService } from './checkpointService.js';
import { DEFAULT_RETENTION, type Retention } from './checkpointStore.js';
import { randomIds, systemClock, type Clock, type IdGenerator } from './determinism.js';
import { atomicFileWriter, type FileWriter } from './fileWriter.js';
import { SimulationRegistry, type SimulationRegistryOptions } from './speculative/sessionRegistry.js';
import { defaultAuditLogPath, stateHome } from './statePaths.js';
import { ToolCall } from './toolCall.js';
import { TransactionManager } from './transactionManager.js';

export interface AgentLedgerOptions {
  workspace: Workspace;
  logger: Logger;
  /** State home; default `$AGENT_LSP_HOME/state` or the XDG state dir. */
  home?: string;
  /** `--audit-log PATH`; default `<home>/audit.jsonl`. */
  auditLogPath?: string;
  clock?: Clock;
  ids?: IdGenerator;
  /** Default: temp file + rename. Tests inject their own (one that fails or pauses on the Nth file). */
  writer?: FileWriter;
  retention?: Retention;
  lock?: { staleMs?: number; timeoutMs?: number };
  /** Who this ledger's calls are by, in the audit log (an HTTP session); absent for a stdio front. */
  agent?: string;
  /** Speculative sessions: cap and idle expiry. */
  simulations?: SimulationRegistryOptions;
}

/**
 * One front's write and record keeping: transactions and checkpoints over its workspace, and the
 * audit log every tool call lands in. Created once per MCP server, beside its Workspace.
 */
export class AgentLedger {
  readonly transactions: TransactionManager;
  readonly checkpoints: CheckpointService;
  readonly audit: AuditLog;
  /** This front's speculative sessions. */
  readonly simulations: SimulationRegistry;
  readonly home: string;
  private readonly clock: Clock;
  private readonly ids: IdGenerator;

  constructor(private readonly options: AgentLedgerOptions) {
    this.home = options.home ?? stateHome();
    this.clock = options.clock ?? systemClock;
    this.ids = options.ids ?? randomIds;
    this.audit = new AuditLog(options.auditLogPath ?? defaultAuditLogPath(this.home));
    this.transactions = new TransactionManager({
      workspace: options.workspace,
      logger: options.logger,
      home: this.home,
      clock: this.clock,
      ids: this.ids,
      writer: options.writer ?? atomicFileWriter,
      retention: options.retention ?? DEFAULT_RETENTION,
      ...(options.lock ? { lock: options.lock } : {}),
      agent: options.agent,
    });
    this.checkpoints = new CheckpointService(this.transactions);
    this.simulations = new SimulationRegistry(options.simulations);
    // Files written by this front may change other files' diagnostics: cached baselines go stale.
    this.transactions.onDiskChanged(() => this.simulations.baselines.bump());
  }

  startCall(tool: string): ToolCall {
    return new ToolCall(this.ids.next('call'), tool, this.clock.now());
  }

  /** Appends the call's audit line. The log is best effort: failing to write it never fails a call. */
  finishCall(call: ToolCall, args: unknown, outcome: AuditEntry['outcome'], error?: string): AuditEntry {
    const end = this.clock.now();
    const entry: AuditEntry = {
      time: call.startedAt.toISOString(),
      call_id: call.id,
      tool: call.tool,
      root: call.root ?? this.options.workspace.primaryRoot ?? null,
      args_sha256: argumentsHash(args),
      outcome,
      duration_ms: Math.max(0, end.getTime() - call.startedAt.getTime()),
      files: call.files,
      rolled_back: call.rolledBack,
    };
    if (this.options.agent !== undefined) entry.agent = this.options.agent;
    if (error !== undefined) entry.error = error;
    if (call.rollbackReason !== undefined) entry.rollback_reason = call.rollbackReason;
    if (call.checkpointId !== undefined) entry.checkpoint_id = call.checkpointId;
    if (call.servedFromCache > 0) entry.served_from_cache = call.servedFromCache;
    try {
      this.audit.append(entry);
    } catch (err) {
      this.options.logger.warn(`could not append to the audit log ${this.audit.path}: ${(err as Error).message}`);
    }
    return entry;
  }
}
