// A header changed outside agent-lsp (sed, git, an editor): clangd registers no file watchers and
// re-reads the headers of its open files only when a document is saved, so without help the
// includer's diagnostics and definitions stay as they were — settled by version, for ever. The
// next answers about the includer must describe the header as it is now. Direct mode and through
// a broker.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { positionOf } from '../helpers/text.js';

const installed = onPath('clangd');
if (!installed) console.warn('clangd is not installed: the header freshness test did not run (apt-get install clangd)');
const title = installed ? 'clangd: a header changed on disk' : 'clangd: a header changed on disk (NOT INSTALLED — did not run)';
/** Settle modes that do not claim the answer describes the workspace as it is. */
const UNCONFIRMED = ['quiet', 'timeout'];

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

async function diagnosticsOfMain(front: AgentLspClient): Promise<{ messages: string[]; settledBy: string | undefined }> {
  const data = ok(await front.call('get_diagnostics', { file_path: 'main.c' }));
  const files = data['files'] as { settled_by: string }[];
  return { messages: (data['diagnostics'] as { message: string }[]).map((d) => d.message), settledBy: files[0]?.settled_by };
}

async function definitionOfStruct(front: AgentLspClient): Promise<{ file: string; line: number }[]> {
  const data = ok(await front.call('go_to_definition', { file_path: 'main.c', position_pattern: 'struct @@point a' }));
  return (data['locations'] as { file: string; line: number }[]).map((l) => ({ file: l.file, line: l.line }));
}

const MODES = [
  { mode: 'direct mode', args: ['--daemon', 'never'] },
  { mode: 'through a broker', args: ['--daemon', 'always'] },
];

describe.skipIf(!installed)(title, () => {
  for (const { mode, args } of MODES) {
    it(`${mode}: the includer's diagnostics and definitions follow the header, edit after edit`, async () => {
      const root = join(scope.root('c-basic'), 'c-basic');
      const header = join(root, 'point.h');
      const front = await startAgentLsp({ args, env: { AGENT_LSP_HOME: scope.home() } });
      scope.fronts.push(front);
      ok(await front.call('start_lsp', { root_dir: root, language_id: 'c' }));
      expect((await diagnosticsOfMain(front)).messages).toEqual([]);
      expect(await definitionOfStruct(front)).toEqual([{ file: 'point.h', line: positionOf(header, 'struct point {').line }]);

      // The function main.c calls is renamed in the header: main.c's call is now undeclared.
      const original = readFileSync(header, 'utf8');
      writeFileSync(header, original.replace('int manhattan(', 'int manhattan_distance('));
      const renamed = await diagnosticsOfMain(front);
      expect(renamed.messages.join('\n'), `settled by ${renamed.settledBy}`).toMatch(/manhattan/);
      expect(UNCONFIRMED).not.toContain(renamed.settledBy);

      // Two lines on top of the header: the struct's definition moves, and the error goes away.
      writeFileSync(header, '/* one */\n/* two */\n' + original);
      const back = await diagnosticsOfMain(front);
      expect(back.messages, `settled by ${back.settledBy}`).toEqual([]);
      expect(await definitionOfStruct(front)).toEqual([{ file: 'point.h', line: positionOf(header, 'struct point {').line }]);
    });

    // clangd publishes nothing for a file a change leaves as it was: waiting for its push after a
    // change to a source it does not include would end only by quiet.
    it(`${mode}: a source the includer does not include, changed outside, leaves its diagnostics settled at once`, async () => {
      const root = join(scope.root('c-basic'), 'c-basic');
      const front = await startAgentLsp({ args, env: { AGENT_LSP_HOME: scope.home() } });
      scope.fronts.push(front);
      ok(await front.call('start_lsp', { root_dir: root, language_id: 'c' }));
      expect((await diagnosticsOfMain(front)).messages).toEqual([]);
      const other = join(root, 'point.c');
      writeFileSync(other, `${readFileSync(other, 'utf8')}/* changed outside */\n`);
      const after = await diagnosticsOfMain(front);
      expect(after.messages).toEqual([]);
      expect(UNCONFIRMED, `settled by ${after.settledBy}`).not.toContain(after.settledBy);
    });
  }
});
