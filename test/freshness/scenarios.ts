import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ok, type AgentLspClient } from '../helpers/mcpClient.js';
import { positionOf } from '../helpers/text.js';

/**
 * Outside edits: a file the server already holds open (A) changes on disk behind agent-lsp's back,
 * as `sed -i`, git or an editor would change it; the next answers that depend on A must describe
 * the new text.
 */
export interface OutsideEditScenario {
  language: string;
  /** Fixture directory (copied into a fresh root): the workspace root. */
  fixture: string;
  /** A: the file that changes, relative to the fixture. */
  target: string;
  /** B: a file that uses A. */
  importer: string;
  /** position_pattern in B of a use of A's symbol. */
  use: string;
  /** Text in A at the symbol's definition (its start is where go_to_definition lands). */
  definition: string;
  /** Three comment lines in A's language, inserted at the top. */
  inserted: string;
  /** A rename on disk of the symbol in A: B then refers to a name A no longer has. */
  rename: [from: string, to: string];
  /** What the importer's new error names. */
  missing: RegExp;
}

export const PYTHON: OutsideEditScenario = {
  language: 'python',
  fixture: 'python-basic',
  target: 'app/geometry.py',
  importer: 'app/routes.py',
  use: 'total += @@distance(a, b)',
  definition: 'distance(a: Point, b: Point)',
  inserted: '# one\n# two\n# three\n',
  rename: ['def distance(', 'def span('],
  missing: /distance/,
};

export const TYPESCRIPT: OutsideEditScenario = {
  language: 'typescript',
  fixture: 'ts-basic',
  target: 'src/shapes.ts',
  importer: 'src/main.ts',
  use: '${@@totalArea(shapes)}',
  definition: 'totalArea(shapes: Shape[])',
  inserted: '// one\n// two\n// three\n',
  rename: ['export function totalArea(', 'export function sumArea('],
  missing: /totalArea/,
};

export const GO: OutsideEditScenario = {
  language: 'go',
  fixture: 'go-basic',
  target: 'geometry/geometry.go',
  importer: 'main.go',
  use: 'geometry.@@Distance(origin, p)',
  definition: 'Distance(a, b Point)',
  inserted: '// one\n// two\n// three\n',
  rename: ['func Distance(', 'func Span('],
  missing: /Distance/,
};

interface Loc {
  file: string;
  line: number;
  column: number;
}

interface Diag {
  severity: string;
  message: string;
}

export async function definitionOfUse(agent: AgentLspClient, s: OutsideEditScenario): Promise<Loc[]> {
  const data = ok(await agent.call('go_to_definition', { file_path: s.importer, position_pattern: s.use }));
  return (data['locations'] as Loc[]).map((l) => ({ file: l.file, line: l.line, column: l.column }));
}

export async function errorsOf(agent: AgentLspClient, file: string): Promise<Diag[]> {
  const data = ok(await agent.call('get_diagnostics', { file_path: file }));
  return (data['diagnostics'] as Diag[]).filter((d) => d.severity === 'error');
}

/** Asks until `check` passes (servers that only push may publish an importer's errors later). */
export async function eventually<T>(ask: () => Promise<T>, check: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await ask();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    value = await ask();
  }
  return value;
}

/**
 * The whole story on a front started in `root` (the fixture's copy): A is opened by a query, then
 * changed on disk twice. The definition answer must be right at once; the importer's errors at
 * once too unless `importerSettles` allows the server time to publish them (push-only servers).
 */
export async function outsideEditsReachTheServer(agent: AgentLspClient, root: string, s: OutsideEditScenario, importerSettles = 0): Promise<void> {
  const a = join(root, s.target);
  ok(await agent.call('start_lsp', { root_dir: root, language_id: s.language }));
  // A query opens A in the server; B is clean and its use of A lands on A's definition.
  ok(await agent.call('list_symbols', { file_path: s.target }));
  expect(await errorsOf(agent, s.importer)).toEqual([]);
  expect(await definitionOfUse(agent, s)).toEqual([{ file: s.target, ...positionOf(a, s.definition) }]);

  // As `sed -i '1i ...'` would: three lines on top of A, written outside agent-lsp.
  writeFileSync(a, s.inserted + readFileSync(a, 'utf8'));
  const moved = positionOf(a, s.definition);
  expect(await definitionOfUse(agent, s)).toEqual([{ file: s.target, ...moved }]);

  // The symbol is renamed in A on disk: B now uses a name A does not have.
  writeFileSync(a, readFileSync(a, 'utf8').replace(s.rename[0], s.rename[1]));
  const ask = () => errorsOf(agent, s.importer);
  const errors = importerSettles > 0 ? await eventually(ask, (e) => e.length > 0, importerSettles) : await ask();
  expect(errors.map((e) => e.message)).toContainEqual(expect.stringMatching(s.missing));
}

/**
 * The graph fixtures' `summarize`, used from cli (and tests/): a workspace whose answers change
 * with outside edits, configuration files and the root itself. `call(tag)` is a line that adds
 * one more use to `user`.
 */
export interface GraphCase {
  language: 'python' | 'typescript';
  fixture: string;
  query: { file_path: string; position_pattern: string };
  user: string;
  call: (tag: string) => string;
}

export const GRAPH_CASES: readonly GraphCase[] = [
  { language: 'python', fixture: 'py-graph', query: { file_path: 'graph/service.py', position_pattern: 'def @@summarize' }, user: 'graph/cli.py', call: (tag) => `\nsummarize("${tag}")\n` },
  { language: 'typescript', fixture: 'ts-graph', query: { file_path: 'src/service.ts', position_pattern: 'export function @@summarize(' }, user: 'src/cli.ts', call: (tag) => `\nexport const use_${tag} = summarize('${tag}');\n` },
];
