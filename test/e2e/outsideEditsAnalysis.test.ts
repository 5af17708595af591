// Read-your-writes for analysis tools: between two calls files are written on disk outside
// agent-lsp (lines inserted, a new caller, a new test file); the second answer must describe the
// disk, not the server's older buffers. In direct mode and through a broker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, type AgentLspClient } from '../helpers/mcpClient.js';
import { FRONT_MODES, frontIn, OutsideEdits } from '../helpers/outsideEdits.js';

const INSERTED = '// one\n// two\n// three\n';

interface Token {
  line: number;
  column: number;
  type: string;
  text: string;
}

describe.each(FRONT_MODES)('outside edits between two analysis calls, $mode', ({ daemon }) => {
  const scope = new BrokerTestScope();
  let agent: AgentLspClient;
  let root: string;
  const edits = new OutsideEdits(() => root);
  const file = (rel: string) => edits.path(rel);
  const write = (rel: string, text: string) => edits.write(rel, text);
  const create = (rel: string, text: string) => edits.create(rel, text);
  const restore = () => edits.restore();
  /** The text at a 1-based line and column of a file on disk, `length` characters long. */
  function textAt(rel: string, line: number, column: number, length: number): string {
    const lineText = readFileSync(file(rel), 'utf8').split('\n')[line - 1] ?? '';
    return [...lineText].slice(column - 1, column - 1 + length).join('');
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

  it('blast_radius: a new caller file and a new test file are counted', async () => {
    const ask = async () => {
      const data = ok(await agent.call('blast_radius', { changed_files: ['src/shapes.ts'], filter: 'totalArea' }));
      return {
        references: data['references'] as number,
        tests: data['test_references'] as number,
        files: (data['files'] as { file: string; test: boolean; references: number }[]).map((f) => `${f.file}:${f.test}:${f.references}`).sort(),
      };
    };
    const before = await ask();
    expect(before.files).toContain('src/main.ts:false:3');
    try {
      create('src/report.ts', "import { totalArea } from './shapes.js';\n\nexport const none = totalArea([]);\n");
      create('src/shapes.test.ts', "import { totalArea } from './shapes.js';\n\nif (totalArea([]) !== 0) throw new Error('not zero');\n");
      const after = await ask();
      expect(after.files).toEqual([...before.files, 'src/report.ts:false:2', 'src/shapes.test.ts:true:2'].sort());
      expect(after.references).toBe(before.references + 4);
      expect(after.tests).toBe(before.tests + 2);
    } finally {
      restore();
    }
  });

  it('get_inlay_hints: hints moved down by inserted lines, and a new call hinted', async () => {
    const ask = async () => {
      const data = ok(await agent.call('get_inlay_hints', { file_path: 'src/main.ts' }));
      return (data['hints'] as { line: number; column: number; label: string }[]).map((h) => ({ line: h.line, column: h.column, label: h.label }));
    };
    const before = await ask();
    expect(before.length).toBeGreaterThan(0);
    try {
      write('src/main.ts', INSERTED + readFileSync(file('src/main.ts'), 'utf8') + '\nexport const one = new Circle(1);\n');
      const lastLine = readFileSync(file('src/main.ts'), 'utf8').split('\n').length - 1;
      const column = [...'export const one = new Circle('].length + 1;
      expect(await ask()).toEqual([...before.map((h) => ({ ...h, line: h.line + 3 })), { line: lastLine, column, label: 'radius:' }]);
    } finally {
      restore();
    }
  });

  it('get_semantic_tokens: tokens moved down by inserted lines, each naming the text on disk there', async () => {
    const ask = async () => {
      const data = ok(await agent.call('get_semantic_tokens', { file_path: 'src/shapes.ts', limit: 1000 }));
      expect(data['complete']).toBe(true);
      return data['tokens'] as (Token & { length: number })[];
    };
    const before = await ask();
    const square = before.find((t) => t.text === 'Square' && t.type === 'class');
    expect(square).toBeDefined();
    try {
      write('src/shapes.ts', INSERTED + readFileSync(file('src/shapes.ts'), 'utf8').replace('export class Square', 'export class Block'));
      const after = await ask();
      expect(after).toHaveLength(before.length);
      for (const t of after) expect(textAt('src/shapes.ts', t.line, t.column, t.length)).toBe(t.text);
      expect(after.find((t) => t.type === 'class' && t.line === square!.line + 3)).toMatchObject({ text: 'Block', column: square!.column });
      expect(after.some((t) => t.text === 'Square')).toBe(false);
    } finally {
      restore();
    }
  });

  it('get_tests_for_file: a test file added on disk is found', async () => {
    const ask = async () => {
      const data = ok(await agent.call('get_tests_for_file', { file_path: 'src/shapes.ts' }));
      return (data['tests'] as { file: string; found_by: string }[]).map((t) => t.file);
    };
    expect(await ask()).toEqual([]);
    try {
      create('src/area.spec.ts', "import { totalArea } from './shapes.js';\n\nif (totalArea([]) !== 0) throw new Error('not zero');\n");
      expect(await ask()).toEqual(['src/area.spec.ts']);
    } finally {
      restore();
    }
  });
});
