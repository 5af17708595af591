// A server that lacks a request another one answers for it (gopls has no textDocument/declaration
// and no rangeFormatting): go_to_declaration answers with the definition and format_range keeps the
// whole-file formatting's edits inside the range — each saying so, as the original agent-lsp's
// callers expect an answer there.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ok, startAgentLsp } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { copyFixture } from './workspaceCopy.js';

const installed = onPath('gopls');
if (!installed) console.warn('gopls is not installed: its declaration and range formatting fallbacks did not run');

describe.skipIf(!installed)(`gopls: declaration and range formatting through what it has${installed ? '' : ' (NOT INSTALLED — did not run)'}`, () => {
  it('go_to_declaration gives the definition and says so; format_range formats only inside the range', async () => {
    const ws = copyFixture('go-basic');
    const agent = await startAgentLsp();
    try {
      ok(await agent.call('start_lsp', { root_dir: ws.root }));
      const where = { file_path: 'main.go', position_pattern: 'geometry.@@Distance(', line_scope_start: 12, line_scope_end: 12 };
      const declaration = ok(await agent.call('go_to_declaration', where));
      const definition = ok(await agent.call('go_to_definition', where));
      expect(declaration).toMatchObject({ answered_by: 'textDocument/definition', locations: definition['locations'] });
      expect((declaration['locations'] as unknown[]).length).toBe(1);

      // Two badly formatted functions; the range covers the first only.
      const file = join(ws.root, 'geometry', 'messy.go');
      writeFileSync(file, 'package geometry\n\nfunc   First( a int )int{return a}\n\nfunc   Second( b int )int{return b}\n');
      const range = { file_path: 'geometry/messy.go', start_line: 3, start_column: 1, end_line: 3, end_column: 36 };
      const preview = ok(await agent.call('format_range', range));
      expect(preview).toMatchObject({ answered_by: 'textDocument/formatting' });
      expect(preview['edits_outside_range']).toBeGreaterThan(0);
      for (const e of preview['edits'] as { line: number; end_line: number }[]) expect([e.line, e.end_line]).toEqual([3, 3]);
      ok(await agent.call('format_range', { ...range, apply: true }));
      const after = readFileSync(file, 'utf8');
      expect(after).toContain('func First(a int) int { return a }');
      expect(after).toContain('func   Second( b int )int{return b}');
    } finally {
      await agent.close();
      ws.remove();
    }
  });
});
