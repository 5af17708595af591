import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { AgentLspClient } from '../helpers/mcpClient.js';

export interface LoggedNews {
  level: string;
  data: Record<string, unknown> & { type: string };
}

/**
 * What a front told its agent without being asked: logging messages (notifications/message) and
 * resources/updated, in arrival order, with a wait for the next one that matches.
 */
export class AgentNews {
  readonly messages: LoggedNews[] = [];
  readonly updated: string[] = [];
  private waiters: (() => void)[] = [];

  constructor(front: AgentLspClient) {
    front.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      const data = n.params.data as LoggedNews['data'];
      if (data && typeof data === 'object' && typeof data.type === 'string') this.messages.push({ level: n.params.level, data });
      this.wake();
    });
    front.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      this.updated.push(n.params.uri);
      this.wake();
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  types(from = 0): string[] {
    return this.messages.slice(from).map((m) => m.data.type);
  }

  /** Waits until `predicate` holds (checked at each notification), or fails naming `what`. */
  async until(predicate: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; messages so far: ${JSON.stringify(this.types())}, updated: ${JSON.stringify(this.updated)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for a logging message of `type` after index `from`; returns it. */
  async message(type: string, from = 0, timeoutMs?: number): Promise<LoggedNews> {
    const find = () => this.messages.slice(from).find((m) => m.data.type === type);
    await this.until(() => find() !== undefined, `a ${type} message`, timeoutMs);
    return find() as LoggedNews;
  }

  /** Waits for a resources/updated of `uri` after index `from`. */
  async resourceUpdated(uri: string, from: number, timeoutMs?: number): Promise<void> {
    await this.until(() => this.updated.slice(from).includes(uri), `resources/updated for ${uri}`, timeoutMs);
  }
}

/** resources/read, parsed (every agent-lsp resource is one JSON document). */
export async function readResource(front: AgentLspClient, uri: string): Promise<Record<string, unknown>> {
  const { contents } = await front.client.readResource({ uri }, { timeout: 300_000 });
  const first = contents[0];
  if (!first || !('text' in first)) throw new Error(`${uri} answered no text`);
  return JSON.parse(first.text) as Record<string, unknown>;
}

export function diagnosticsUriOf(path: string): string {
  return `lsp-diagnostics://${path}`;
}
