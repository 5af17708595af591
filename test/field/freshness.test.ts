// Field: outside edits to OTHER files than the one asked about, on real code (issue 28, items 3
// and 4). Go's own go/ast and encoding/json with gopls: a `sed` rename in walk.go and `rm fold.go`
// must reach an open file of the package at the next get_diagnostics, never the old answer as
// settled. The sqlite amalgamation with clangd: its header edited outside must reach the includer's
// diagnostics and definitions. Ground truth: `go build` and the C compiler on the edited copy.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { positionOf } from '../helpers/text.js';
import { eventually } from '../freshness/scenarios.js';
import { isNotRun, prepareCorpus, type Corpus } from './corpora.js';

/** Settle modes that do not claim the answer describes the workspace as it is. */
const UNCONFIRMED = ['quiet', 'timeout'];
const SETTLES_MS = 60_000;

interface Answer {
  messages: string[];
  settledBy: string | undefined;
}

async function diagnosticsOf(front: AgentLspClient, file: string): Promise<Answer> {
  const data = ok(await front.call('get_diagnostics', { file_path: file }));
  const files = data['files'] as { settled_by: string }[];
  // Errors and warnings (a C99 implicit declaration is a warning); gopls's modernize hints are neither.
  const problems = (data['diagnostics'] as { message: string; severity: string }[]).filter((d) => d.severity === 'error' || d.severity === 'warning');
  return { messages: problems.map((d) => d.message), settledBy: files[0]?.settled_by };
}

/** The first answer after the edit is the new truth or says it is not settled; the truth comes. */
async function neverStaleAsSettled(front: AgentLspClient, file: string, expected: RegExp): Promise<Answer> {
  const first = await diagnosticsOf(front, file);
  if (!first.messages.some((m) => expected.test(m))) expect(UNCONFIRMED, `old diagnostics of ${file} answered as settled: ${JSON.stringify(first.messages.slice(0, 3))}`).toContain(first.settledBy);
  return eventually(() => diagnosticsOf(front, file), (a) => a.messages.some((m) => expected.test(m)), SETTLES_MS);
}

const corpora: Corpus[] = [];
const fronts: AgentLspClient[] = [];
afterAll(async () => {
  for (const f of fronts.splice(0)) await f.close();
  for (const c of corpora.splice(0)) c.dispose();
});

function corpus(name: 'go-std' | 'sqlite'): Corpus | { notRun: string } {
  const c = prepareCorpus(name);
  if (!isNotRun(c)) corpora.push(c);
  return c;
}

async function front(root: string, language: string): Promise<AgentLspClient> {
  const f = await startAgentLsp({ args: ['--daemon', 'never'] });
  fronts.push(f);
  ok(await f.call('start_lsp', { root_dir: root, language_id: language }));
  return f;
}

const goStd = onPath('gopls') && onPath('go') ? corpus('go-std') : { notRun: 'gopls or go is not installed' };
describe(isNotRun(goStd) ? `field freshness, Go standard library: not run (${goStd.notRun})` : `field freshness, ${goStd.label}, gopls`, () => {
  if (isNotRun(goStd)) return;
  const { root } = goStd;
  /** `go build` of one package of the copy: its error lines (the ground truth). */
  const goBuild = (pkg: string): string => spawnSync('go', ['build', `./${pkg}`], { cwd: root, encoding: 'utf8', timeout: 120_000 }).stderr;

  it('sed renames Inspect in go/ast/walk.go, then rm encoding/json/fold.go: the open files of those packages are never answered stale as settled', async () => {
    const f = await front(root, 'go');
    expect((await diagnosticsOf(f, 'go/ast/commentmap.go')).messages).toEqual([]);
    expect((await diagnosticsOf(f, 'encoding/json/encode.go')).messages).toEqual([]);

    execFileSync('sed', ['-i', 's/^func Inspect(/func InspectX(/', 'go/ast/walk.go'], { cwd: root, timeout: 10_000 });
    expect(goBuild('go/ast')).toMatch(/commentmap\.go:\d+:\d+: undefined: Inspect/);
    const renamed = await neverStaleAsSettled(f, 'go/ast/commentmap.go', /undefined: Inspect/);
    expect(renamed.messages.filter((m) => /undefined: Inspect/.test(m))).toHaveLength(2);

    rmSync(join(root, 'encoding/json/fold.go'));
    const truth = goBuild('encoding/json');
    expect(truth).toMatch(/encode\.go:\d+:\d+: undefined: (foldName|appendFoldedName)/);
    const removed = await neverStaleAsSettled(f, 'encoding/json/encode.go', /undefined: (foldName|appendFoldedName)/);
    for (const m of removed.messages) expect(truth).toContain(m);
  });
});

const sqlite = onPath('clangd') && onPath('cc') ? corpus('sqlite') : { notRun: 'clangd or cc is not installed' };
describe(isNotRun(sqlite) ? `field freshness, sqlite: not run (${sqlite.notRun})` : `field freshness, ${sqlite.label}, clangd`, () => {
  if (isNotRun(sqlite)) return;
  const { root } = sqlite;
  const header = join(root, 'sqlite3.h');
  /** The C compiler on the includer as the copy is now (the ground truth). */
  const compile = (): string => spawnSync('cc', ['-fsyntax-only', '-I', root, 'main.c'], { cwd: root, encoding: 'utf8', timeout: 120_000 }).stderr;
  const typedefLine = (): number => positionOf(header, 'typedef struct sqlite3 sqlite3;').line;
  const definitionOfSqlite3 = async (f: AgentLspClient) => {
    const data = ok(await f.call('go_to_definition', { file_path: 'main.c', position_pattern: '@@sqlite3 *db' }));
    return (data['locations'] as { file: string; line: number }[]).map((l) => ({ file: l.file, line: l.line }));
  };

  it('sqlite3.h edited outside, edit after edit: the includer\'s diagnostics and definitions follow it', async () => {
    const f = await front(root, 'c');
    expect((await diagnosticsOf(f, 'main.c')).messages).toEqual([]);
    expect(await definitionOfSqlite3(f)).toEqual([{ file: 'sqlite3.h', line: typedefLine() }]);
    const original = readFileSync(header, 'utf8');

    // sed renames a function the includer calls.
    execFileSync('sed', ['-i', 's/sqlite3_libversion(void);/sqlite3_libversion_renamed(void);/', 'sqlite3.h'], { cwd: root, timeout: 10_000 });
    expect(compile()).toMatch(/implicit declaration of function .sqlite3_libversion./);
    const renamed = await neverStaleAsSettled(f, 'main.c', /sqlite3_libversion/);
    expect(UNCONFIRMED).not.toContain(renamed.settledBy);

    // Put back with lines on top: no error any more, and the typedef moved.
    writeFileSync(header, '/* one */\n/* two */\n/* three */\n' + original);
    expect(compile()).not.toMatch(/error|implicit/);
    const back = await diagnosticsOf(f, 'main.c');
    expect(back.messages, `settled by ${back.settledBy}`).toEqual([]);
    expect(UNCONFIRMED).not.toContain(back.settledBy);
    expect(await definitionOfSqlite3(f)).toEqual([{ file: 'sqlite3.h', line: typedefLine() }]);
  });
});
