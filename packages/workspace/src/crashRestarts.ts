import { UserError } from '@agent-lsp/protocol';
import { RestartBudget, type LspConnection, type Logger, type ServerDefinition } from '@agent-lsp/lsp';

/** The crash budget of each server this front runs: how many automatic restarts it still gets. */
export class CrashRestarts {
  private readonly budgets = new Map<string, RestartBudget>();

  /** Counts a crash of `server`; throws (the user's error) when it crashed too often to restart again. */
  check(server: ServerDefinition): void {
    let budget = this.budgets.get(server.id);
    if (!budget) this.budgets.set(server.id, (budget = new RestartBudget()));
    const { recent, allowed } = budget.crashed();
    if (!allowed) {
      throw new UserError(
        'server_failed',
        `${server.displayName} crashed ${recent} times in ${budget.windowMinutes} minutes; agent-lsp stopped restarting it. Check \`agent-lsp doctor\`, then call restart_lsp_server.`,
      );
    }
  }

  /** restart_lsp_server: the server starts over with a full budget. */
  reset(serverId: string): void {
    this.budgets.delete(serverId);
  }
}

/** A server shared through a broker is restarted there, for every client of it; false: reconnect instead. */
export async function restartedInPlace(conn: LspConnection, logger: Logger): Promise<boolean> {
  try {
    return await conn.restartServer();
  } catch (err) {
    logger.warn(`${conn.server.displayName} could not be restarted in place (${(err as Error).message}); reconnecting`);
    return false;
  }
}
