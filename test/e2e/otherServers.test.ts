import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { FIXTURES } from '../helpers/paths.js';
import { positionOf } from '../helpers/text.js';

/**
 * End-to-end tests against language servers that agent-lsp does not bundle: gopls and clangd,
 * found on PATH. When one is missing its tests are skipped, and both the console and the test
 * title say so plainly, so a green run on a machine without them is not mistaken for coverage.
 */

const GO = join(FIXTURES, 'go-basic');
const CPP = join(FIXTURES, 'cpp-basic');

/** Every way a diagnostics answer can settle except giving up. */
const SETTLED = ['pull', 'version', 'exact', 'push'];

interface Loc {
  file: string;
  line: number;
  column: number;
}

interface FileSummary {
  file: string;
  settled_by: string;
  errors: number;
}

interface Diag {
  line: number;
  column: number;
  severity: string;
  message: string;
}

function locs(data: Record<string, unknown>): Loc[] {
  return data['locations'] as Loc[];
}


function server(binary: string, install: string): { installed: boolean; title: string } {
  const installed = onPath(binary);
  if (!installed) console.warn(`${binary} is not installed: its tests did not run (${install})`);
  return { installed, title: installed ? binary : `${binary} (NOT INSTALLED — did not run)` };
}

const gopls = server('gopls', 'apt-get install gopls');
const clangd = server('clangd', 'apt-get install clangd');

describe.skipIf(!gopls.installed)(gopls.title, () => {
  let agent: AgentLspClient;
  const geometry = join(GO, 'geometry', 'geometry.go');
  const main = join(GO, 'main.go');
  const report = join(GO, 'report.go');
  const broken = join(GO, 'broken', 'broken.go');
  let goVersion: string | undefined;

  beforeAll(async () => {
    agent = await startAgentLsp();
    const started = ok(await agent.call('start_lsp', { root_dir: GO, language_id: 'go' }));
    expect(started).toMatchObject({ ready: true, servers: [expect.objectContaining({ language: 'go', ready: true })] });
    goVersion = (started['servers'] as { version?: string }[])[0]?.version;
  });
  afterAll(async () => {
    await agent?.close();
  });

  it("shows gopls's own version, not the build information its initialize answer gives as one", () => {
    expect(goVersion).toMatch(/^v\d+\.\d+\.\d+\S*$/);
  });

  it('goes to the definition in another package, in character columns after non-ASCII text', async () => {
    const target = { file: 'geometry/geometry.go', ...positionOf(geometry, 'Distance(a, b Point)') };
    const byPattern = ok(await agent.call('go_to_definition', { file_path: 'main.go', position_pattern: 'geometry.@@Distance(origin, p)' }));
    expect(locs(byPattern)).toEqual([expect.objectContaining(target)]);
    // The call sits after "café 東京 🚀" on its line: a column counted in UTF-16 units or bytes would miss it.
    const at = positionOf(main, 'Distance(origin, p)');
    const byColumn = ok(await agent.call('go_to_definition', { file_path: 'main.go', line: at.line, column: at.column + 2 }));
    expect(locs(byColumn)).toEqual([expect.objectContaining(target)]);
  });

  it('finds every reference across packages and files, complete', async () => {
    const data = ok(await agent.call('find_references', { file_path: 'geometry/geometry.go', position_pattern: 'func @@Distance(' }));
    expect(data).toMatchObject({ ready: true, total: 4, returned: 4, complete: true, files: 3 });
    expect(locs(data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'geometry/geometry.go', ...positionOf(geometry, 'Distance(a, b Point)') }),
        expect.objectContaining({ file: 'main.go', ...positionOf(main, 'Distance(origin, p)') }),
        expect.objectContaining({ file: 'main.go', ...positionOf(main, 'Distance(p, origin)') }),
        expect.objectContaining({ file: 'report.go', ...positionOf(report, 'Distance(points[0], q)') }),
      ]),
    );
  });

  it('reports the deliberate type error, settled without a timeout', async () => {
    const data = ok(await agent.call('get_diagnostics', { file_path: 'broken/broken.go' }));
    const files = data['files'] as FileSummary[];
    expect(files).toEqual([expect.objectContaining({ file: 'broken/broken.go', errors: 1 })]);
    console.info(`gopls: get_diagnostics settled_by=${files[0]?.settled_by}`);
    expect(SETTLED).toContain(files[0]?.settled_by);
    expect(data['diagnostics']).toEqual([
      expect.objectContaining({ file: 'broken/broken.go', severity: 'error', ...positionOf(broken, '42'), message: expect.stringMatching(/42.*string/) }),
    ]);

    const clean = ok(await agent.call('get_diagnostics', { file_path: 'main.go' }));
    expect(clean).toMatchObject({ total: 0, errors: 0 });
    expect(SETTLED).toContain((clean['files'] as FileSummary[])[0]?.settled_by);
  });

  it('shows the signature and documentation on hover', async () => {
    const data = ok(await agent.call('inspect_symbol', { file_path: 'report.go', position_pattern: 'geometry.@@Distance(' }));
    expect(data).toMatchObject({ ready: true, found: true, range: { ...positionOf(report, 'Distance(points[0], q)') } });
    // gopls versions differ in qualifying names (geometry.Point) and in grouping parameters (a, b Point).
    const contents = (data['contents'] as string).replace(/geometry\./g, '');
    expect(contents).toMatch(/func Distance\(a(, b)? Point(, b Point)?\) float64/);
    expect(contents).toContain('Distance returns the straight-line distance between a and b.');
  });
});

describe.skipIf(!clangd.installed)(clangd.title, () => {
  let agent: AgentLspClient;
  const header = join(CPP, 'person.h');
  const source = join(CPP, 'person.cpp');
  const main = join(CPP, 'main.cpp');
  const broken = join(CPP, 'broken.cpp');
  // Person::ageIn: declared in person.h, defined and called once in person.cpp, called twice in main.cpp.
  const allReferences = () => [
    { file: 'person.h', ...positionOf(header, 'ageIn(int year) const;') },
    { file: 'person.cpp', ...positionOf(source, 'ageIn(int year) const {') },
    { file: 'person.cpp', ...positionOf(source, 'ageIn(year)') },
    { file: 'main.cpp', ...positionOf(main, 'ageIn(1852)') },
    { file: 'main.cpp', ...positionOf(main, 'ageIn(1843)') },
  ];

  beforeAll(async () => {
    agent = await startAgentLsp();
    const started = ok(await agent.call('start_lsp', { root_dir: CPP, language_id: 'cpp' }));
    expect(started).toMatchObject({ ready: true, servers: [expect.objectContaining({ language: 'c/cpp', ready: true })] });
  });
  afterAll(async () => {
    await agent?.close();
  });

  // These two run first, on a fresh server, on purpose: with only compile_flags.txt clangd knows
  // just the files that are open, so agent-lsp opens the sources before calling clangd ready.
  it('find_references on a fresh server finds all 5 references, not only those in open files', async () => {
    const data = ok(await agent.call('find_references', { file_path: 'person.h', position_pattern: 'int @@ageIn(' }));
    expect(data).toMatchObject({ ready: true, complete: true });
    expect(data['total']).toBe(5);
  });

  it('go_to_definition on a fresh server lands on the out-of-line definition in person.cpp', async () => {
    const data = ok(await agent.call('go_to_definition', { file_path: 'main.cpp', position_pattern: 'ada.@@ageIn(1852)' }));
    expect(locs(data)).toEqual([expect.objectContaining({ file: 'person.cpp', ...positionOf(source, 'ageIn(int year) const {') })]);
  });

  it('goes to the declaration in the header from a call site after non-ASCII text', async () => {
    const data = ok(await agent.call('go_to_declaration', { file_path: 'main.cpp', position_pattern: 'ada.@@ageIn(1852)' }));
    expect(locs(data)).toEqual([expect.objectContaining({ file: 'person.h', ...positionOf(header, 'ageIn(int year) const;') })]);
  });

  it('with every file open, finds all 5 references and the definition, in character columns', async () => {
    // Settling each file's diagnostics means clangd has built it, and so indexed it.
    for (const file of ['person.cpp', 'main.cpp']) {
      const diags = ok(await agent.call('get_diagnostics', { file_path: file }));
      expect(diags, file).toMatchObject({ errors: 0 });
    }
    const data = ok(await agent.call('find_references', { file_path: 'person.h', position_pattern: 'int @@ageIn(' }));
    expect(data).toMatchObject({ ready: true, total: 5, returned: 5, complete: true, files: 3 });
    expect(locs(data)).toEqual(expect.arrayContaining(allReferences().map((r) => expect.objectContaining(r))));

    const def = ok(await agent.call('go_to_definition', { file_path: 'main.cpp', position_pattern: 'ada.@@ageIn(1852)' }));
    expect(locs(def)).toEqual([expect.objectContaining({ file: 'person.cpp', ...positionOf(source, 'ageIn(int year) const {') })]);
  });

  it('reports the deliberate type error, settled without a timeout', async () => {
    const data = ok(await agent.call('get_diagnostics', { file_path: 'broken.cpp' }));
    const files = data['files'] as FileSummary[];
    expect(files).toEqual([expect.objectContaining({ file: 'broken.cpp', errors: 1 })]);
    console.info(`clangd: get_diagnostics settled_by=${files[0]?.settled_by}`);
    expect(SETTLED).toContain(files[0]?.settled_by);
    const diags = data['diagnostics'] as Diag[];
    expect(diags).toEqual([expect.objectContaining({ severity: 'error', ...positionOf(broken, '"wrong"'), message: expect.stringContaining('int') })]);
  });

  it('shows the method signature on hover', async () => {
    const data = ok(await agent.call('inspect_symbol', { file_path: 'main.cpp', position_pattern: 'ada.@@ageIn(1843)' }));
    expect(data).toMatchObject({ ready: true, found: true, range: { ...positionOf(main, 'ageIn(1843)') } });
    expect(data['contents']).toContain('int ageIn(int year) const');
  });
});
