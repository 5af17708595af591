// clangd without compile_commands.json on a large real C tree (libgit2: 178 sources, 255 headers,
// libgit2Corpus.ts), full tier: clangd then knows only the files agent-lsp opens — the sources
// first, headers in the room the 200-file limit leaves (clangdReadiness.ts) — so a question about
// a function declared in a header and called from many sources must answer clangd's own answer
// with the whole tree indexed (the ground truth: clangd with a compilation database of the same
// files, asked directly), or say it is not complete; rename_symbol must not rename part of it.
// A slice of the tree that fits the limit (src/util: every file opened) is renamed for real and
// the renamed code checked: every occurrence renamed, the touched files still compiling.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge, type Outcome } from './fieldOutcome.js';
import { ourReferences, trueReferences, cursor, type FieldContext, type FieldSpec, type Target } from './fieldSuite.js';
import { libgit2Flags, withCompileDatabase } from './libgit2Corpus.js';
import { RawServer } from './rawServer.js';

const TIMEOUT_MS = 900_000;
const SPEC = { corpus: 'libgit2', server: 'clangd', languageId: 'c' } as FieldSpec;
/** Declared in src/libgit2/repository.h (a header the 200 files leave closed), called from 17 sources. */
const CONFIGMAP: Target = { file: 'src/libgit2/refdb_fs.c', needle: 'git_repository__configmap_lookup(&t, backend->repo, GIT_CONFIGMAP_IGNORECASE' };
/** Declared in src/util/fs_path.h, called from three sources of src/util (and others outside it). */
const FS_PATH_ROOT: Target = { file: 'src/util/futils.c', needle: 'git_fs_path_root(' };
const UTIL = 'src/util';

function prepare(): { ours: Corpus; truth: Corpus; slice: Corpus } | NotRun {
  if (!onPath('clangd')) return { notRun: 'clangd is not installed (apt-get install clangd)' };
  const made: Corpus[] = [];
  for (let i = 0; i < 3; i++) {
    const c = prepareCorpus('libgit2');
    if (isNotRun(c)) {
      for (const m of made) m.dispose();
      return c;
    }
    made.push(c);
  }
  withCompileDatabase(made[1]!.root);
  return { ours: made[0]!, truth: made[1]!, slice: made[2]! };
}

const prepared = prepare();
const notRun = 'notRun' in prepared ? prepared.notRun : undefined;
if (notRun) console.warn(`field libgit2: not run (${notRun})`);
if (!('notRun' in prepared)) process.once('exit', () => [prepared.ours, prepared.truth, prepared.slice].forEach((c) => c.dispose()));

/** Every C file of a tree, as one hash (a refused rename changes none). */
function treeHash(root: string): string {
  const hash = createHash('sha256');
  for (const rel of (readdirSync(root, { recursive: true }) as string[]).filter((p) => /\.[ch]$/.test(p)).sort()) hash.update(rel).update(readFileSync(join(root, rel)));
  return hash.digest('hex');
}

/** The root-relative C files holding `identifier` as a whole word. */
function filesWith(root: string, identifier: string): string[] {
  const r = spawnSync('grep', ['-rlw', '--include=*.c', '--include=*.h', identifier, '.'], { cwd: root, encoding: 'utf8' });
  return r.stdout.split('\n').filter(Boolean).map((f) => f.replace(/^\.\//, '')).sort();
}

const record = (tool: string, label: string, result: { outcome: Outcome; detail?: string }): void => judge({ tool, corpus: 'libgit2', case: label, ...result });

describe.skipIf(notRun !== undefined)(`field, libgit2 on clangd without compile_commands.json, full tier${notRun ? ` (NOT RUN: ${notRun})` : ''}`, { timeout: TIMEOUT_MS }, () => {
  const { ours, truth, slice } = prepared as { ours: Corpus; truth: Corpus; slice: Corpus };
  let agent: AgentLspClient;
  let raw: RawServer;
  const ctxOurs = (): FieldContext => ({ corpus: ours, agent, raw, spec: SPEC });
  const ctxTruth = (): FieldContext => ({ corpus: truth, agent, raw, spec: SPEC });

  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: ours.root, language_id: 'c' }));
    raw = await RawServer.start('clangd', truth.root);
    await raw.open(CONFIGMAP.file, 'c');
    await raw.idle(TIMEOUT_MS);
  }, TIMEOUT_MS);
  afterAll(async () => {
    await agent?.close();
    await raw?.stop();
    for (const c of [ours, truth, slice]) c.dispose();
  });

  it('find_references of a function declared in a header the 200 files leave closed is clangd\'s whole-tree answer, or says it is not', async () => {
    const expected = await trueReferences(ctxTruth(), CONFIGMAP);
    expect(expected.some((k) => k.startsWith('src/libgit2/repository.h:')), `the truth holds the declaration: ${JSON.stringify(expected)}`).toBe(true);
    const answer = await ourReferences(ctxOurs(), CONFIGMAP);
    record('find_references', `${CONFIGMAP.file} "git_repository__configmap_lookup", no compile_commands.json, 433 files`, compareSets(answer.keys, expected, answer.complete));
  });

  it('rename_symbol of that function renames every occurrence, or refuses and changes nothing', async () => {
    const before = treeHash(ours.root);
    const oldFiles = filesWith(ours.root, 'git_repository__configmap_lookup');
    const result = await agent.call('rename_symbol', { file_path: CONFIGMAP.file, ...cursor(ours.root, CONFIGMAP), new_name: 'field_configmap_lookup' });
    console.log(`rename_symbol without a database: ${result.text.slice(0, 2000)}`);
    if (result.isError) {
      expect(result.text).toMatch(/nothing was changed/);
      expect(treeHash(ours.root), 'a refused rename changes nothing on disk').toBe(before);
      record('rename_symbol', 'git_repository__configmap_lookup, no compile_commands.json, 433 files', { outcome: 'partial-labelled', detail: result.text.split('\n')[0] });
      return;
    }
    const left = filesWith(ours.root, 'git_repository__configmap_lookup');
    const renamed = filesWith(ours.root, 'field_configmap_lookup');
    const outcome: Outcome = left.length === 0 && JSON.stringify(renamed) === JSON.stringify(oldFiles) ? 'exact' : 'wrong';
    record('rename_symbol', 'git_repository__configmap_lookup, no compile_commands.json, 433 files', { outcome, detail: `still named in ${JSON.stringify(left)}; renamed in ${renamed.length} of ${oldFiles.length} files` });
  });

  it('rename_symbol in a slice that fits the limit (src/util, every file opened) renames every occurrence and the code still compiles', async () => {
    const sliceRoot = join(slice.root, UTIL);
    const sliceAgent = await startAgentLsp();
    try {
      ok(await sliceAgent.call('start_lsp', { root_dir: sliceRoot, language_id: 'c' }));
      const target = { ...FS_PATH_ROOT, file: FS_PATH_ROOT.file.slice(UTIL.length + 1) };
      // The truth: clangd's whole-tree references, those inside the slice.
      const expected = (await trueReferences(ctxTruth(), FS_PATH_ROOT)).filter((k) => k.startsWith(`${UTIL}/`));
      const expectedFiles = [...new Set(expected.map((k) => k.split(':')[0]!.slice(UTIL.length + 1)))].sort();
      expect(expectedFiles).toContain('fs_path.h');
      const result = await sliceAgent.call('rename_symbol', { file_path: target.file, ...cursor(sliceRoot, target), new_name: 'field_fs_path_root' });
      expect(result.isError, result.text).toBe(false);
      const left = filesWith(sliceRoot, 'git_fs_path_root');
      const renamed = filesWith(sliceRoot, 'field_fs_path_root');
      const sources = renamed.filter((f) => f.endsWith('.c'));
      const failing = sources.filter((f) => spawnSync('gcc', ['-fsyntax-only', ...libgit2Flags(slice.root), f], { cwd: sliceRoot }).status !== 0);
      const exact = left.length === 0 && JSON.stringify(renamed) === JSON.stringify(expectedFiles) && failing.length === 0;
      record('rename_symbol', 'git_fs_path_root in src/util (no compile_commands.json, every file opened)', {
        outcome: exact ? 'exact' : 'wrong',
        detail: `still named in ${JSON.stringify(left)}; renamed ${JSON.stringify(renamed)} for ${JSON.stringify(expectedFiles)}; gcc fails on ${JSON.stringify(failing)}; ${result.text.slice(0, 400)}`,
      });
    } finally {
      await sliceAgent.close();
    }
  });
});
