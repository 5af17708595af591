import { cpSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { descendantPids, rssBytes } from '@agent-lsp/broker';
import { ServerRegistry } from '@agent-lsp/lsp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';
import { runItem, serverFacts, type ServerFacts } from './battery.js';
import { LANGUAGE_CASES } from './cases.js';
import { NOT_IN_MATRIX } from './moreCases.js';
import { OTHER_NOT_IN_MATRIX } from './otherCases.js';
import { CONFIG_NOT_IN_MATRIX } from './configCases.js';
import { BATTERY_ITEMS, type BatteryItem, type ItemOutcome, type LanguageCase } from './languageCase.js';

/**
 * The language matrix (DESIGN.md, Languages): every row runs the same battery on its own small
 * project through one agent-lsp front, queries in sequence. A server absent here is "not run" with
 * the reason, in the title and on the console. AGENT_LSP_LANGUAGES_REPORT names a JSON file the
 * outcomes go to (scripts/gen-languages-doc.mjs turns it into docs/languages.md).
 */

const registry = new ServerRegistry();

interface RowReport {
  name: string;
  language: string;
  server: string;
  serverId: string;
  version?: string | undefined;
  command?: string | undefined;
  install: string;
  notRun?: string;
  coldStartMs?: number;
  rssBytes?: number;
  items: Partial<Record<BatteryItem, ItemOutcome>>;
}

const report: RowReport[] = [];

/** The server's command as the product resolves it (PATH, the project, agent-lsp's own), or why not. */
function resolveServer(c: LanguageCase, root: string): { command?: string; version?: string; notRun?: string } {
  const def = registry.servers.find((s) => s.id === c.serverId);
  if (!def) return { notRun: `no server profile ${c.serverId}` };
  const resolved = def.resolve(root);
  if (!resolved) return { notRun: `${def.displayName} not found (${def.installHint})` };
  return { command: resolved.command.join(' '), ...(resolved.version ? { version: resolved.version } : {}) };
}

function treeRss(pid: number): number {
  return [pid, ...descendantPids(pid)].reduce((sum, p) => sum + (rssBytes(p) ?? 0), 0);
}

for (const c of LANGUAGE_CASES) {
  const fixture = join(FIXTURES, 'languages', c.fixture);
  const found = resolveServer(c, fixture);
  const row: RowReport = { name: c.name, language: c.language, server: c.serverId, serverId: c.serverId, install: c.install, command: found.command, items: {} };
  report.push(row);
  if (found.notRun) {
    row.notRun = found.notRun;
    console.warn(`language matrix: ${c.name} not run (${found.notRun})`);
  }
  const title = found.notRun ? `${c.name}: not run (${found.notRun})` : c.name;

  describe.skipIf(found.notRun !== undefined)(title, () => {
    let agent: AgentLspClient;
    let root: string;
    let facts: ServerFacts | undefined;
    let serverPid: number | undefined;

    beforeAll(async () => {
      root = realpathSync(mkdtempSync(join(tmpdir(), `agent-lsp-lang-${c.fixture}-`)));
      cpSync(fixture, root, { recursive: true });
      agent = await startAgentLsp({ args: [...(c.args ?? [])], cwd: root });
    });
    afterAll(async () => {
      // The server's memory (its process and children) after the whole battery ran on it.
      if (serverPid) row.rssBytes = treeRss(serverPid);
      await agent?.close();
      rmSync(root, { recursive: true, force: true });
    });

    it('start: the server starts and becomes ready', async () => {
      const began = performance.now();
      const answer = await agent.call('start_lsp', { root_dir: root, language_id: c.languageId, ready_timeout_seconds: 120 });
      row.coldStartMs = Math.round(performance.now() - began);
      const server = ((answer.data['servers'] ?? []) as { server: string; ready: boolean; pid?: number; version?: string }[])[0];
      const outcome: ItemOutcome = !answer.isError && answer.data['ready'] === true && server?.ready === true ? { status: 'pass' } : { status: 'fail', detail: answer.text.slice(0, 300) };
      row.items.start = outcome;
      expect(outcome).toEqual({ status: 'pass' });
      facts = await serverFacts(agent, c);
      row.server = facts.server;
      row.version = found.version ?? facts.version ?? server?.version;
      serverPid = server?.pid;
    });

    for (const item of BATTERY_ITEMS.filter((i) => i !== 'start')) {
      it(item, async () => {
        if (!facts) throw new Error('the server did not start');
        const outcome = await runItem(item, agent, c, root, facts);
        row.items[item] = outcome;
        expect(outcome.status, outcome.detail).not.toBe('fail');
      });
    }
  });
}

afterAll(() => {
  const out = process.env['AGENT_LSP_LANGUAGES_REPORT'];
  if (out) writeFileSync(out, JSON.stringify({ rows: report, notInMatrix: [...NOT_IN_MATRIX, ...OTHER_NOT_IN_MATRIX, ...CONFIG_NOT_IN_MATRIX] }, null, 2));
});
