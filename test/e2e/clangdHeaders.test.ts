// clangd without a compilation database (compile_flags.txt only) has no background index, and its
// index of open files keeps no references inside the headers they include: a declaration in a
// header nobody opened was missing from find_references (labelled complete), and rename_symbol left
// it unrenamed, so the renamed code no longer built. agent-lsp opens the headers too. Its workspace
// symbols name a function once (its definition): go_to_symbol finds the header's declaration through
// the references.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { FIXTURES } from '../helpers/paths.js';
import { positionOf } from '../helpers/text.js';

const installed = onPath('clangd');
if (!installed) console.warn('clangd is not installed: the header references test did not run (apt-get install clangd)');
const title = installed ? 'clangd without compile_commands.json: references in headers' : 'clangd without compile_commands.json: references in headers (NOT INSTALLED — did not run)';
const ROOT = join(FIXTURES, 'c-basic');

describe.skipIf(!installed)(title, () => {
  let agent: AgentLspClient;
  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: ROOT, language_id: 'c' }));
  });
  afterAll(async () => {
    await agent?.close();
  });

  const declaration = { file: 'point.h', ...positionOf(join(ROOT, 'point.h'), 'manhattan(struct point a, struct point b);') };

  it('find_references from a source lists the declaration in a header no call opened', async () => {
    const data = ok(await agent.call('find_references', { file_path: 'main.c', position_pattern: '@@manhattan(a, b)' }));
    expect(data['complete']).toBe(true);
    expect(data['locations']).toEqual(expect.arrayContaining([expect.objectContaining(declaration)]));
  });

  it('rename_symbol renames the declaration in the header too', async () => {
    const data = ok(await agent.call('rename_symbol', { file_path: 'main.c', position_pattern: '@@manhattan(a, b)', new_name: 'taxicab', dry_run: true }));
    const edits = data['edits'] as { file: string; line: number; column: number }[];
    expect(edits.map((e) => e.file).sort()).toEqual(['main.c', 'point.c', 'point.h']);
    expect(edits).toEqual(expect.arrayContaining([expect.objectContaining(declaration)]));
  });

  it('go_to_symbol lists the header\'s declaration with the definition (clangd\'s workspace symbols name only the definition)', async () => {
    const data = ok(await agent.call('go_to_symbol', { symbol_path: 'manhattan', language_id: 'c' }));
    const definitions = data['definitions'] as { file: string; line: number; column: number }[];
    const definition = { file: 'point.c', ...positionOf(join(ROOT, 'point.c'), 'manhattan(struct point a, struct point b) {') };
    expect(definitions.map(({ file, line, column }) => ({ file, line, column })).sort((a, b) => a.file.localeCompare(b.file))).toEqual([definition, declaration]);
    expect(data['complete']).toBe(true);
  });
});
