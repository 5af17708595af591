// The Vue pair (vue-language-server with vtsls) on VitePress's default theme, ~90 single-file
// components nobody here wrote. Diagnostics of four components asked at once right after start_lsp
// (one with a planted error, one clean, two with errors of their own) against vue-tsc on the same
// copy; references and definition of the theme's useSidebar composable, asked from a component,
// against its occurrences: the name occurs in the theme only as that one function (its import in
// nine files, its calls, the re-export and the declaration), so each occurrence is a reference and
// the declaration is the definition.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { positionOf } from '../helpers/text.js';
import { isNotRun, prepareCorpus, type Corpus } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';
import { claimsComplete, locationKeys } from './fieldSuite.js';
import type { FieldLocation } from './rawServer.js';
import { THEME, vueTscEntry } from './vueCorpus.js';

const C = `${THEME}/components`;
const PLANTED = `${C}/VPNavBar.vue`;
/** Planted inside VPNavBar.vue's <script setup lang="ts">, before this line. */
const PLANT_BEFORE = 'const { y } = useWindowScroll()';
const PLANT = "const fieldPlanted: number = 'not a number'";
const DIAGNOSED = [PLANTED, `${C}/VPFooter.vue`, `${C}/VPNavBarSearch.vue`, `${C}/VPLocalNav.vue`];
const SYMBOL = 'useSidebar';
/** Asked from its call in the planted component (after the plant: positions are read from the disk text). */
const ASKED_AT = { file: PLANTED, needle: 'useSidebar()' };
const DECLARATION = { file: `${THEME}/composables/sidebar.js`, needle: 'function useSidebar()', at: 9 };
const TIMEOUT_MS = 300_000;

/** A tool error (error: true) says itself that it is no answer. */
type Answer = { keys: string[]; complete: boolean; text: string; error?: boolean };

const missing = ['vue-language-server', 'vtsls'].find((b) => !onPath(b));
const prepared = missing ? { notRun: `${missing} is not installed (agent-lsp servers install vue)` } : prepareCorpus('vitepress');
const notRun = isNotRun(prepared) ? prepared.notRun : undefined;
if (!isNotRun(prepared)) process.once('exit', () => prepared.dispose());
if (notRun) console.warn(`field vitepress on the Vue pair: not run (${notRun})`);

describe.skipIf(notRun !== undefined)(`field, vitepress on vue-language-server with vtsls, full tier${notRun ? ` (NOT RUN: ${notRun})` : ''}`, { timeout: TIMEOUT_MS }, () => {
  const corpus = prepared as Corpus;
  const root = (): string => corpus.root;
  let agent: AgentLspClient;
  const diagnostics = new Map<string, Answer>();

  beforeAll(async () => {
    const path = join(root(), PLANTED);
    const text = readFileSync(path, 'utf8');
    expect(text, 'the line the error is planted before').toContain(PLANT_BEFORE);
    writeFileSync(path, text.replace(PLANT_BEFORE, `${PLANT}\n${PLANT_BEFORE}`));
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: root(), language_id: 'vue' }));
    const answers = await Promise.all(DIAGNOSED.map((file) => ourDiagnostics(agent, file)));
    DIAGNOSED.forEach((file, i) => diagnostics.set(file, answers[i]!));
  }, TIMEOUT_MS);
  afterAll(async () => {
    await agent?.close();
    corpus?.dispose();
  });

  it('get_diagnostics of four components asked at once right after start_lsp is what vue-tsc says, or says it is not settled', () => {
    judgeDiagnostics(vueTsc(root()), diagnostics, 'with 3 others at once, right after start_lsp');
  });

  it(`find_references of ${SYMBOL} from a component is every occurrence of the name in the theme`, async () => {
    const truth = occurrences(root(), SYMBOL);
    expect(truth.length, 'the name occurs in the theme').toBeGreaterThan(10);
    const at = positionOf(join(root(), ASKED_AT.file), ASKED_AT.needle);
    const data = ok(await agent.call('find_references', { file_path: ASKED_AT.file, ...at, include_declaration: true, limit: 100_000, ready_timeout_seconds: 240 }));
    const ours = starts(root(), (data['locations'] as FieldLocation[] | undefined) ?? []);
    judge({ tool: 'find_references', corpus: 'vitepress', case: `${ASKED_AT.file} "${ASKED_AT.needle}"`, ...compareSets(ours, truth, claimsComplete(data)) });
  });

  it('get_diagnostics of the same components asked again, one at a time, is what vue-tsc says, or says it is not settled', async () => {
    const again = new Map<string, Answer>();
    for (const file of DIAGNOSED) again.set(file, await ourDiagnostics(agent, file));
    judgeDiagnostics(vueTsc(root()), again, 'asked again');
  });

  it(`go_to_definition of ${SYMBOL} from a component is its declaration in the composable`, async () => {
    const declared = positionOf(join(root(), DECLARATION.file), DECLARATION.needle);
    const truth = [`${DECLARATION.file}:${declared.line}:${declared.column + DECLARATION.at}`];
    const at = positionOf(join(root(), ASKED_AT.file), ASKED_AT.needle);
    const data = ok(await agent.call('go_to_definition', { file_path: ASKED_AT.file, ...at, limit: 100 }));
    const ours = starts(root(), (data['locations'] as FieldLocation[] | undefined) ?? []);
    judge({ tool: 'go_to_definition', corpus: 'vitepress', case: `${ASKED_AT.file} "${ASKED_AT.needle}"`, ...compareSets(ours, truth, claimsComplete(data)) });
  });
});

/**
 * Each answer against vue-tsc's errors of its file: a tool error (the server did not answer in
 * time) or an answer that says it is not settled is labelled partial, anything else must be exact.
 */
function judgeDiagnostics(truth: Map<string, string[]>, answers: Map<string, Answer>, when: string): void {
  expect(truth.get(PLANTED)?.length, `vue-tsc sees the planted error: ${JSON.stringify([...truth])}`).toBeGreaterThan(0);
  for (const [file, ours] of answers) {
    if (!ours.complete && !ours.error) expect(ours.text, 'an answer not complete says NOT SETTLED').toContain(`${file}: NOT SETTLED`);
    const label = `${file}${file === PLANTED ? ' + planted error' : ''}, ${when}`;
    judge({ tool: 'get_diagnostics', corpus: 'vitepress', case: label, ...(ours.error ? { outcome: 'partial-labelled' as const, detail: `tool error: ${ours.text}` } : compareSets(ours.keys, truth.get(file) ?? [], ours.complete)) });
  }
}

/** Locations as `file:line:column` of their starts (a reference's extent is the name's). */
function starts(root: string, locations: readonly FieldLocation[]): string[] {
  return locationKeys(root, locations).map((k) => k.replace(/-\d+:\d+$/, ''));
}

/** Every occurrence of `name` as a whole word in the theme's files, as `file:line:column`. */
function occurrences(root: string, name: string): string[] {
  const keys: string[] = [];
  const word = new RegExp(`\\b${name}\\b`, 'g');
  for (const entry of readdirSync(join(root, THEME), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(vue|js)$/.test(entry.name)) continue;
    const rel = relative(root, join(entry.parentPath, entry.name));
    readFileSync(join(root, rel), 'utf8')
      .split(/\r\n|\r|\n/)
      .forEach((line, i) => {
        for (const m of line.matchAll(word)) keys.push(`${rel}:${i + 1}:${[...line.slice(0, m.index)].length + 1}`);
      });
  }
  return keys;
}

/** vue-tsc's errors per file of the corpus (its tsconfig), as `line:column`. */
function vueTsc(root: string): Map<string, string[]> {
  const r = spawnSync(process.execPath, [vueTscEntry(), '--noEmit', '--pretty', 'false', '-p', 'tsconfig.json'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const keys = new Map<string, string[]>();
  for (const m of `${r.stdout}\n${r.stderr}`.matchAll(/^(.+?)\((\d+),(\d+)\): error /gm)) keys.set(m[1]!, [...(keys.get(m[1]!) ?? []), `${m[2]}:${m[3]}`]);
  return keys;
}

/** One file's errors as `line:column` keys, whether the answer claims to be complete, and its text; or the tool's error. */
async function ourDiagnostics(agent: AgentLspClient, file: string): Promise<Answer> {
  const answer = await agent.call('get_diagnostics', { file_path: file, limit: 100_000 });
  if (answer.isError) return { keys: [], complete: false, text: answer.text, error: true };
  const data = ok(answer);
  const keys = ((data['diagnostics'] as (FieldLocation & { severity: string })[] | undefined) ?? []).filter((d) => d.severity === 'error').map((d) => `${d.line}:${d.column}`);
  return { keys, complete: claimsComplete(data), text: answer.text };
}
