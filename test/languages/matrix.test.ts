import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServerRegistry } from '@agent-lsp/lsp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/paths.js';
import { LANGUAGE_CASES } from './cases.js';
import { NOT_IN_MATRIX } from './moreCases.js';
import { OTHER_NOT_IN_MATRIX } from './otherCases.js';
import type { BatteryItem, ItemOutcome, LanguageCase } from './languageCase.js';
import { QUERIES, runRow, type RowRun } from './rowRun.js';
import { CONFIG_NOT_IN_MATRIX } from './configCases.js';

/**
 * The language matrix (DESIGN.md, Languages): every row runs the same battery on its own small
 * project through one agent-lsp front, queries in sequence (rowRun.ts). A server absent here is
 * "not run" with the reason, in the title and on the console. AGENT_LSP_LANGUAGES_REPORT names a JSON file the
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

/** The rows that run here, in order; a row's run, once begun. */
const runnable: LanguageCase[] = [];
const runs = new Map<LanguageCase, RowRun>();

/**
 * Begins a row's run unless it has begun. Each row's battery waits mostly on its server (readiness,
 * diagnostics settling), so the matrix runs the next row alongside the current one: two rows at a
 * time, each on its own front and server, its queries in sequence. The run that writes the report
 * (docs/languages.md) runs one row at a time, so its cold starts and memory are each server's alone.
 */
function begin(c: LanguageCase, fixture: string, row: RowReport, version: string | undefined): RowRun {
  let run = runs.get(c);
  if (!run) {
    run = runRow(c, fixture, row, version);
    runs.set(c, run);
  }
  return run;
}

const ahead = process.env['AGENT_LSP_LANGUAGES_REPORT'] ? 0 : 1;
const beginners = new Map<LanguageCase, () => RowRun>();

for (const c of LANGUAGE_CASES) {
  const fixture = join(FIXTURES, 'languages', c.fixture);
  const found = resolveServer(c, fixture);
  const row: RowReport = { name: c.name, language: c.language, server: c.serverId, serverId: c.serverId, install: c.install, command: found.command, items: {} };
  report.push(row);
  if (found.notRun) {
    row.notRun = found.notRun;
    console.warn(`language matrix: ${c.name} not run (${found.notRun})`);
  } else {
    runnable.push(c);
    beginners.set(c, () => begin(c, fixture, row, found.version));
  }
  const title = found.notRun ? `${c.name}: not run (${found.notRun})` : c.name;

  describe.skipIf(found.notRun !== undefined)(title, () => {
    let run: RowRun | undefined;

    beforeAll(() => {
      run = beginners.get(c)?.();
      const index = runnable.indexOf(c);
      for (const next of runnable.slice(index + 1, index + 1 + ahead)) beginners.get(next)?.();
    });
    // The row's front closed and its copy removed before the next row's tests.
    afterAll(() => run?.done);

    it('start: the server starts and becomes ready', async () => {
      const outcome = await run?.start;
      expect(outcome).toEqual({ status: 'pass' });
    });

    for (const item of QUERIES) {
      it(item, async () => {
        const outcome = await run?.items.get(item);
        if (!outcome) throw new Error('the row did not run');
        expect(outcome.status, outcome.detail).not.toBe('fail');
      });
    }
  });
}

// A row begun ahead whose tests a filter (-t) left out still ends its front before the file ends.
afterAll(async () => {
  await Promise.all([...runs.values()].map((r) => r.done));
});

afterAll(() => {
  const out = process.env['AGENT_LSP_LANGUAGES_REPORT'];
  if (out) writeFileSync(out, JSON.stringify({ rows: report, notInMatrix: [...NOT_IN_MATRIX, ...OTHER_NOT_IN_MATRIX, ...CONFIG_NOT_IN_MATRIX] }, null, 2));
});
