import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrokerTestScope } from './brokers.js';
import { startAgentLsp, type AgentLspClient } from './mcpClient.js';

/** Direct mode and through a broker: each server keeps its own copies of open and closed files. */
export const FRONT_MODES = [
  { mode: 'direct mode (--daemon never)', daemon: false },
  { mode: 'through a broker', daemon: true },
];

/** A front in the scope's home, in direct mode or through a broker; the scope ends it. */
export async function frontIn(scope: BrokerTestScope, home: string, daemon: boolean): Promise<AgentLspClient> {
  if (daemon) return scope.front(home);
  const agent = await startAgentLsp({ env: { AGENT_LSP_HOME: home } });
  scope.fronts.push(agent);
  return agent;
}

/**
 * Files of a workspace changed on disk outside agent-lsp, as an editor, `sed -i` or git would:
 * written or created between two calls, and put back (or removed) by `restore`.
 */
export class OutsideEdits {
  private readonly original = new Map<string, string>();
  private readonly created: string[] = [];

  constructor(private readonly root: () => string) {}

  path(rel: string): string {
    return join(this.root(), rel);
  }

  read(rel: string): string {
    return readFileSync(this.path(rel), 'utf8');
  }

  write(rel: string, text: string): void {
    if (!this.original.has(rel)) this.original.set(rel, this.read(rel));
    writeFileSync(this.path(rel), text);
  }

  create(rel: string, text: string): void {
    this.created.push(rel);
    writeFileSync(this.path(rel), text);
  }

  restore(): void {
    for (const [rel, text] of this.original) writeFileSync(this.path(rel), text);
    this.original.clear();
    for (const rel of this.created.splice(0)) rmSync(this.path(rel), { force: true });
  }
}
