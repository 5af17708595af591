import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';
import { positionOf } from '../helpers/text.js';

/**
 * References are converted from the server's UTF-16 columns to characters on the text of the files
 * they name, read from disk (these files are not open in the server): lines ending in \r\n and a
 * lone \r, and astral characters (two UTF-16 units each) before a reference on its line.
 */
describe('find_references on files with CRLF and astral characters, read from disk', () => {
  let agent: AgentLspClient;
  let root: string;
  let main: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'agent-lsp-positions-'));
    cpSync(join(FIXTURES, 'ts-basic'), root, { recursive: true });
    main = join(root, 'src', 'main.ts');
    const text = readFileSync(main, 'utf8')
      .replace('return `${café}', "const 𝒳 = '😀😀'; return `${𝒳} ${café}")
      .replace('  return Math.max(', "  const far = '𝄞 🎉 漢字'; return far.length + Math.max(")
      .split('\n')
      .join('\r\n')
      // One line ends in a lone \r.
      .replace('export function biggest(list: Shape[]): number {\r\n', 'export function biggest(list: Shape[]): number {\r');
    writeFileSync(main, text);
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root }));
  });
  afterAll(async () => {
    await agent?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('gives each reference its line and character column in the text on disk', async () => {
    const refs = ok(await agent.call('find_references', { file_path: 'src/shapes.ts', position_pattern: 'export function @@totalArea' }));
    const inMain = (refs['locations'] as { file: string; line: number; column: number; end_line: number; end_column: number }[]).filter((l) => l.file === 'src/main.ts');
    const expected = ['totalArea, type Shape', 'totalArea(shapes)', 'totalArea([])'].map((needle) => positionOf(main, needle));
    expect(inMain.map(({ line, column }) => ({ line, column }))).toEqual(expected);
    // The end is on the same line, the name's length (9 characters) further.
    for (const l of inMain) expect({ end_line: l.end_line, end_column: l.end_column }).toEqual({ end_line: l.line, end_column: l.column + 'totalArea'.length });
    // The astral characters are before the references: a UTF-16 column would be further right.
    const line = readFileSync(main, 'utf8').split(/\r\n|\r|\n/)[(expected[1]?.line ?? 0) - 1] ?? '';
    expect(line.indexOf('totalArea(shapes)') + 1).toBeGreaterThan(expected[1]?.column ?? 0);
  });
});
