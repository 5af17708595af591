// Read-your-writes for navigation tools: between two calls a file is written on disk outside
// agent-lsp (lines inserted above a symbol, a function renamed, a new file using a symbol); the
// second answer must describe the disk, not the server's older buffers. In direct mode and
// through a broker (each server keeps its own copies of open and closed files).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, type AgentLspClient } from '../helpers/mcpClient.js';
import { FRONT_MODES, frontIn, OutsideEdits } from '../helpers/outsideEdits.js';
import { positionOf } from '../helpers/text.js';

const INSERTED = '// one\n// two\n// three\n';

interface Loc {
  file: string;
  line: number;
  column: number;
}

describe.each(FRONT_MODES)('outside edits between two navigation calls, $mode', ({ daemon }) => {
  const scope = new BrokerTestScope();
  let agent: AgentLspClient;
  let root: string;
  const edits = new OutsideEdits(() => root);
  const file = (rel: string) => edits.path(rel);
  const write = (rel: string, text: string) => edits.write(rel, text);
  const create = (rel: string, text: string) => edits.create(rel, text);
  const restore = () => edits.restore();
  /** The 1-based lines of a file on disk that contain `needle`. */
  function linesOf(rel: string, needle: string): number[] {
    return readFileSync(file(rel), 'utf8').split('\n').flatMap((l, i) => (l.includes(needle) ? [i + 1] : []));
  }

  beforeAll(async () => {
    const home = scope.home();
    root = join(scope.root('ts-basic'), 'ts-basic');
    agent = await frontIn(scope, home, daemon);
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'typescript' }));
  });
  afterAll(async () => {
    await scope.cleanup();
  });

  it('type_hierarchy: a subtype moved down by inserted lines, and a new subtype in a new file', async () => {
    const ask = async () => {
      const data = ok(await agent.call('type_hierarchy', { file_path: 'src/shapes.ts', position_pattern: 'export interface @@Shape', direction: 'subtypes' }));
      return (data['subtypes'] as (Loc & { name: string })[]).map((s) => ({ name: s.name, file: s.file, line: s.line })).sort((a, b) => a.name.localeCompare(b.name));
    };
    const before = await ask();
    expect(before).toEqual([
      { name: 'Circle', file: 'src/shapes.ts', line: positionOf(file('src/shapes.ts'), 'export class Circle').line },
      { name: 'Square', file: 'src/shapes.ts', line: positionOf(file('src/shapes.ts'), 'export class Square').line },
    ]);
    try {
      write('src/shapes.ts', INSERTED + readFileSync(file('src/shapes.ts'), 'utf8'));
      create('src/triangle.ts', "import type { Shape } from './shapes.js';\n\nexport class Triangle implements Shape {\n  area(): number {\n    return 0;\n  }\n}\n");
      expect(await ask()).toEqual([
        { name: 'Circle', file: 'src/shapes.ts', line: before[0]!.line + 3 },
        { name: 'Square', file: 'src/shapes.ts', line: before[1]!.line + 3 },
        { name: 'Triangle', file: 'src/triangle.ts', line: 3 },
      ]);
    } finally {
      restore();
    }
  });

  it('go_to_symbol: a method moved down by inserted lines, and a function renamed on disk', async () => {
    const definitions = async (path: string) => {
      const data = ok(await agent.call('go_to_symbol', { symbol_path: path }));
      return (data['definitions'] as Loc[]).map((d) => ({ file: d.file, line: d.line, column: d.column }));
    };
    // Square's area: two lines below its class head.
    const squareArea = () => positionOf(file('src/shapes.ts'), 'area(): number {', linesOf('src/shapes.ts', 'export class Square')[0]! + 2);
    expect(await definitions('Square.area')).toEqual([{ file: 'src/shapes.ts', ...squareArea() }]);
    try {
      write('src/shapes.ts', INSERTED + readFileSync(file('src/shapes.ts'), 'utf8').replace('export function totalArea(', 'export function sumArea('));
      expect(await definitions('Square.area')).toEqual([{ file: 'src/shapes.ts', ...squareArea() }]);
      expect(await definitions('sumArea')).toEqual([{ file: 'src/shapes.ts', ...positionOf(file('src/shapes.ts'), 'sumArea(') }]);
    } finally {
      restore();
    }
  });

  it('get_document_highlights: occurrences moved down, and a new one counted', async () => {
    const ask = async () => {
      const data = ok(await agent.call('get_document_highlights', { file_path: 'src/main.ts', position_pattern: '${@@totalArea(shapes)}' }));
      return { total: data['total'], lines: (data['highlights'] as Loc[]).map((h) => h.line) };
    };
    expect(await ask()).toEqual({ total: 3, lines: linesOf('src/main.ts', 'totalArea') });
    try {
      write('src/main.ts', INSERTED + readFileSync(file('src/main.ts'), 'utf8') + '\nexport const none = totalArea([]);\n');
      expect(linesOf('src/main.ts', 'totalArea')).toHaveLength(4);
      expect(await ask()).toEqual({ total: 4, lines: linesOf('src/main.ts', 'totalArea') });
    } finally {
      restore();
    }
  });

  it('prepare_rename: the name at a line and column is the one on disk now', async () => {
    const where = positionOf(file('src/shapes.ts'), 'totalArea(');
    const ask = async () => ok(await agent.call('prepare_rename', { file_path: 'src/shapes.ts', ...where }));
    expect(await ask()).toMatchObject({ renameable: true, placeholder: 'totalArea' });
    try {
      write('src/shapes.ts', readFileSync(file('src/shapes.ts'), 'utf8').replace('export function totalArea(', 'export function sumArea('));
      expect(await ask()).toMatchObject({ renameable: true, placeholder: 'sumArea', range: { line: where.line, column: where.column, end_line: where.line, end_column: where.column + 'sumArea'.length } });
    } finally {
      restore();
    }
  });

  it('explore_symbol: a caller added in a new file is counted and listed', async () => {
    const ask = async () => {
      const data = ok(await agent.call('explore_symbol', { file_path: 'src/shapes.ts', position_pattern: 'export function @@totalArea' }));
      const refs = (data['references'] as Loc[]).map((r) => `${r.file}:${r.line}`);
      const callers = (data['callers'] as { name: string; file: string }[]).map((c) => `${c.file}:${c.name}`);
      return { total: data['references_total'] as number, refs, callers, definition: (data['definitions'] as Loc[])[0]?.line };
    };
    const before = await ask();
    expect(before.refs.some((r) => r.startsWith('src/report.ts'))).toBe(false);
    try {
      create('src/report.ts', "import { totalArea } from './shapes.js';\n\nexport function emptyReport(): number {\n  return totalArea([]);\n}\n");
      write('src/shapes.ts', INSERTED + readFileSync(file('src/shapes.ts'), 'utf8'));
      const after = await ask();
      expect(after.total).toBe(before.total + 2);
      expect(after.refs).toEqual(expect.arrayContaining(['src/report.ts:1', 'src/report.ts:4']));
      expect(after.callers).toContain('src/report.ts:emptyReport');
      expect(after.definition).toBe((before.definition ?? 0) + 3);
    } finally {
      restore();
    }
  });
});
