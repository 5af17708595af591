// The watchers drop the echo of agent-lsp's own writes for a moment after each write. An outside
// write of the same file in that moment is not an echo: the next answer must describe it, in
// direct mode (the front's watcher) and through a broker (the broker's watcher).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

interface Case {
  language: string;
  fixture: string;
  symbol: { file_path: string; position_pattern: string };
  /** A closed file that does not use the symbol, as it starts and after agent-lsp's edit. */
  extra: { path: string; text: string; edited: string };
  /** The outside write: the file now uses the symbol on these lines. */
  outside: { text: string; lines: number[] };
}

const CASES: Case[] = [
  {
    language: 'python',
    fixture: 'python-basic',
    symbol: { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' },
    extra: { path: 'app/extra.py', text: 'EXTRA = 1\n', edited: 'EXTRA = 2\n' },
    outside: { text: 'from app.geometry import Point, distance\n\nEXTRA = distance(Point(0.0, 0.0), Point(1.0, 1.0))\n', lines: [1, 3] },
  },
  {
    language: 'typescript',
    fixture: 'ts-basic',
    symbol: { file_path: 'src/shapes.ts', position_pattern: 'export function @@totalArea' },
    extra: { path: 'src/extra.ts', text: 'export const EXTRA = 1;\n', edited: 'export const EXTRA = 2;\n' },
    outside: { text: "import { totalArea } from './shapes.js';\n\nexport const EXTRA = totalArea([]);\n", lines: [1, 3] },
  },
];

async function references(front: AgentLspClient, c: Case): Promise<string[]> {
  const data = ok(await front.call('find_references', c.symbol));
  expect(data['complete']).toBe(true);
  return (data['locations'] as { file: string; line: number }[]).map((l) => `${l.file}:${l.line}`).sort();
}

async function outsideWriteRightAfterOurs(front: AgentLspClient, root: string, c: Case): Promise<void> {
  const extra = join(root, c.extra.path);
  writeFileSync(extra, c.extra.text);
  ok(await front.call('start_lsp', { root_dir: root, language_id: c.language }));
  const before = await references(front, c);
  expect(before.filter((r) => r.startsWith(c.extra.path))).toEqual([]);

  // agent-lsp writes the closed file; the query after it makes the server read that text (servers
  // read a closed file when an answer needs it). At once, something else (an editor, a formatter,
  // git) writes the file again: now it uses the symbol.
  ok(await front.call('apply_edit', { file_path: c.extra.path, old_text: c.extra.text, new_text: c.extra.edited }));
  expect(await references(front, c)).toEqual(before);
  writeFileSync(extra, c.outside.text);
  // Long enough for the watcher to see the write, short of the moment it stops dropping echoes.
  await new Promise((r) => setTimeout(r, 300));

  const after = await references(front, c);
  expect(after.filter((r) => r.startsWith(c.extra.path))).toEqual(c.outside.lines.map((l) => `${c.extra.path}:${l}`));
  expect(after.length).toBe(before.length + c.outside.lines.length);
}

describe('an outside write right after agent-lsp wrote the same file', () => {
  for (const c of CASES) {
    it(`${c.language}: reaches the server before the next answer, direct mode (--daemon never)`, async () => {
      const home = scope.home();
      const root = join(scope.root(c.fixture), c.fixture);
      const front = await startAgentLsp({ env: { AGENT_LSP_HOME: home } });
      scope.fronts.push(front);
      await outsideWriteRightAfterOurs(front, root, c);
    });

    it(`${c.language}: reaches the server before the next answer, through a broker`, async () => {
      const home = scope.home();
      const root = join(scope.root(c.fixture), c.fixture);
      const front = await scope.front(home);
      await outsideWriteRightAfterOurs(front, root, c);
    });
  }
});
