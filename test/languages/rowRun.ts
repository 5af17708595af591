import { cpSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descendantPids, rssBytes } from '@agent-lsp/broker';
import { startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { runItem, serverFacts } from './battery.js';
import { BATTERY_ITEMS, type BatteryItem, type ItemOutcome, type LanguageCase } from './languageCase.js';

/**
 * One row of the language matrix run from start to end on its own: a private copy of its fixture,
 * one agent-lsp front, start_lsp, then the battery's queries in sequence, then the front closed
 * and the copy removed. Each item's outcome is a promise the row's tests await, so a row can run
 * ahead of its tests (the matrix starts the next row while this one's queries wait on its server).
 */

export type Query = Exclude<BatteryItem, 'start'>;
export const QUERIES = BATTERY_ITEMS.filter((i): i is Query => i !== 'start');

/** What a run adds to the row's report (docs/languages.md). */
export interface RowFacts {
  server: string;
  version?: string | undefined;
  coldStartMs?: number;
  rssBytes?: number;
  items: Partial<Record<BatteryItem, ItemOutcome>>;
}

export interface RowRun {
  /** The start item's outcome (start_lsp ready, then the server's capabilities asked). */
  start: Promise<ItemOutcome>;
  items: ReadonlyMap<Query, Promise<ItemOutcome>>;
  /** Settles once the front is closed and the copy removed. */
  done: Promise<void>;
}

/** The processes' and their children's RSS (a paired server's companion too: a sibling, not a child). */
function treeRss(pids: readonly number[]): number {
  return [...new Set(pids.flatMap((pid) => [pid, ...descendantPids(pid)]))].reduce((sum, p) => sum + (rssBytes(p) ?? 0), 0);
}

function deferred(): { promise: Promise<ItemOutcome>; resolve: (o: ItemOutcome) => void } {
  let resolve!: (o: ItemOutcome) => void;
  const promise = new Promise<ItemOutcome>((r) => (resolve = r));
  return { promise, resolve };
}

const failure = (e: unknown): ItemOutcome => ({ status: 'fail', detail: e instanceof Error ? e.message : String(e) });

/** Starts the row now; `row` gets its facts as they come; `versionFound` is the version the product resolved. */
export function runRow(c: LanguageCase, fixture: string, row: RowFacts, versionFound: string | undefined): RowRun {
  const start = deferred();
  const items = new Map(QUERIES.map((q) => [q, deferred()]));
  const notStarted: ItemOutcome = { status: 'fail', detail: 'the server did not start' };

  const done = (async () => {
    let root: string | undefined;
    let agent: AgentLspClient | undefined;
    try {
      root = realpathSync(mkdtempSync(join(tmpdir(), `agent-lsp-lang-${c.fixture}-`)));
      cpSync(fixture, root, { recursive: true });
      agent = await startAgentLsp({ args: [...(c.args ?? [])], cwd: root });
      const began = performance.now();
      const answer = await agent.call('start_lsp', { root_dir: root, language_id: c.languageId, ready_timeout_seconds: 120 });
      row.coldStartMs = Math.round(performance.now() - began);
      const server = ((answer.data['servers'] ?? []) as { server: string; ready: boolean; pid?: number; companion_pid?: number; version?: string }[])[0];
      const started: ItemOutcome = !answer.isError && answer.data['ready'] === true && server?.ready === true ? { status: 'pass' } : { status: 'fail', detail: answer.text.slice(0, 300) };
      row.items.start = started;
      if (started.status !== 'pass') {
        start.resolve(started);
        return;
      }
      const facts = await serverFacts(agent, c);
      row.server = facts.server;
      row.version = versionFound ?? facts.version ?? server?.version;
      start.resolve(started);
      for (const [item, outcome] of items) {
        const answered = await runItem(item, agent, c, root, facts).catch(failure);
        row.items[item] = answered;
        outcome.resolve(answered);
      }
      // The server's memory (its process, its companion's, and their children) after the whole battery ran on it.
      if (server?.pid) row.rssBytes = treeRss([server.pid, ...(server.companion_pid !== undefined ? [server.companion_pid] : [])]);
    } catch (e) {
      start.resolve(failure(e));
    } finally {
      // Items not reached (the server did not start, or the front failed) fail, never hang.
      start.resolve(notStarted);
      for (const outcome of items.values()) outcome.resolve(notStarted);
      await agent?.close();
      if (root) rmSync(root, { recursive: true, force: true });
    }
  })();

  return { start: start.promise, items: new Map([...items].map(([q, d]) => [q, d.promise])), done };
}
