// clangd's build give-up on the sqlite amalgamation, full tier (each build of the 9 MB sqlite3.c
// takes clangd up to a minute or more here): the give-up time made 1 ms (AGENT_LSP_BUILD_GIVE_UP_MS),
// so after an outside edit of sqlite3.c — `sed -i` inserting comment lines at its top while it is
// closed, then its text put back while it is open — clangd cannot build it before agent-lsp gives
// up on it. From then until clangd has built it, every answer is exact or says it is not complete,
// naming sqlite3.c (find_references from the header and from the includer, find_callers), and
// rename_symbol refuses and changes nothing. Once clangd has built it (get_diagnostics opens it),
// the answers are exact and complete: no earlier partial answer served from the answer cache or
// prefetch. The truth is clangd asked directly before the edit, the edit applied to it
// (fieldOutsideEdits.ts: the lines below an insertion move down).
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient, type ToolAnswer } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { isNotRun, prepareCorpus, type Corpus } from './corpora.js';
import { compareSets, judge, type Outcome } from './fieldOutcome.js';
import { shifted } from './fieldOutsideEdits.js';
import { claimsComplete, cursor, trueReferences, type FieldContext, type FieldSpec, type Target } from './fieldSuite.js';
import { RawServer } from './rawServer.js';

const TIMEOUT_MS = 1_200_000;
const SPEC = { corpus: 'sqlite', server: 'clangd', languageId: 'c', comment: '//' } as FieldSpec;
const FROM_HEADER: Target = { file: 'sqlite3.h', needle: 'SQLITE_API int sqlite3_open(', at: 15 };
const FROM_INCLUDER: Target = { file: 'main.c', needle: 'sqlite3_open(":memory:"' };
/** Called from main.c and from inside sqlite3.c: its callers there move with the edit. */
const CLOSE: Target = { file: 'main.c', needle: 'sqlite3_close(db)' };
const EDITED = 'sqlite3.c';
/** How often, at most, the answers are asked again while clangd builds sqlite3.c (5 s apart). */
const POLLS = 200;

const missing = onPath('clangd') ? undefined : 'clangd is not installed (apt-get install clangd)';
const prepared = missing ? { notRun: missing } : prepareCorpus('sqlite');
const notRun = isNotRun(prepared) ? prepared.notRun : undefined;
if (notRun) console.warn(`field sqlite (give-up): not run (${notRun})`);
if (!isNotRun(prepared)) process.once('exit', () => prepared.dispose());

const record = (tool: string, label: string, result: { outcome: Outcome; detail?: string }): void => judge({ tool, corpus: 'sqlite', case: label, ...result });
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const diskHash = (root: string): string => ['sqlite3.c', 'sqlite3.h', 'main.c'].reduce((h, f) => h.update(readFileSync(join(root, f))), createHash('sha256')).digest('hex');

/**
 * An answer labelled partial for sqlite3.c (its index may hold the file's previous text) whose
 * differences from the truth all lie in sqlite3.c is what its label says: partial, not wrong. Any
 * other difference, or one in an answer that claims to be complete, is wrong.
 */
function judgeGivenUp(ours: string[], truth: string[], complete: boolean): { outcome: Outcome; detail?: string } {
  const result = compareSets(ours, truth, complete);
  if (result.outcome !== 'wrong' || complete) return result;
  const elsewhere = (keys: string[]): string[] => keys.filter((k) => !k.includes(`${EDITED}:`));
  if (compareSets(elsewhere(ours), elsewhere(truth), false).outcome === 'wrong') return result;
  return { outcome: 'partial-labelled', detail: `differs in ${EDITED} only, as labelled: ${result.detail ?? ''}` };
}

interface RawCall {
  from: { name: string; uri: string; selectionRange: Parameters<RawServer['location']>[1] };
  fromRanges: Parameters<RawServer['location']>[1][];
}

describe.skipIf(notRun !== undefined)(`field, sqlite on clangd, a build of sqlite3.c given up on, full tier${notRun ? ` (NOT RUN: ${notRun})` : ''}`, { timeout: TIMEOUT_MS }, () => {
  const corpus = prepared as Corpus;
  const ctx = { corpus, spec: SPEC } as FieldContext;
  let agent: AgentLspClient;
  let raw: RawServer;

  beforeAll(async () => {
    agent = await startAgentLsp({ env: { AGENT_LSP_BUILD_GIVE_UP_MS: '1' } });
    ctx.agent = agent;
    ok(await agent.call('start_lsp', { root_dir: corpus.root, language_id: 'c' }));
    raw = await RawServer.start('clangd', corpus.root);
    ctx.raw = raw;
    for (const file of ['sqlite3.h', 'main.c']) await raw.open(file, 'c');
    await raw.idle(TIMEOUT_MS);
  }, TIMEOUT_MS);
  afterAll(async () => {
    await agent?.close();
    await raw?.stop();
    corpus.dispose();
  });

  /** Callers as `caller@file:line:column` and each call site as `caller>file:line:column`. */
  async function trueCallers(target: Target): Promise<string[]> {
    const at = cursor(corpus.root, target);
    const line = readFileSync(join(corpus.root, target.file), 'utf8').split('\n')[at.line - 1]!;
    const items = await raw.request<unknown[] | null>('textDocument/prepareCallHierarchy', { textDocument: { uri: raw.uri(target.file) }, position: { line: at.line - 1, character: [...line].slice(0, at.column - 1).join('').length } });
    const calls = (await raw.request<RawCall[] | null>('callHierarchy/incomingCalls', { item: items![0] })) ?? [];
    return calls.flatMap((c) => {
      const caller = raw.location(c.from.uri, c.from.selectionRange);
      return [`${c.from.name}@${caller.file}:${caller.line}:${caller.column}`, ...c.fromRanges.map((r) => {
        const site = raw.location(c.from.uri, r);
        return `${c.from.name}>${site.file}:${site.line}:${site.column}`;
      })];
    });
  }

  async function ourCallers(target: Target): Promise<{ keys: string[]; answer: ToolAnswer }> {
    const answer = await agent.call('find_callers', { file_path: target.file, ...cursor(corpus.root, target), limit: 10_000, ready_timeout_seconds: 240 });
    const calls = (ok(answer)['calls'] as { name: string; file: string; line: number; column: number; call_sites: { file: string; line: number; column: number }[] }[] | undefined) ?? [];
    return { answer, keys: calls.flatMap((c) => [`${c.name}@${c.file}:${c.line}:${c.column}`, ...c.call_sites.map((s) => `${c.name}>${s.file}:${s.line}:${s.column}`)]) };
  }

  /** A partial answer names sqlite3.c and says INCOMPLETE first. */
  function labelled(answer: { complete: boolean; text: string; partial: unknown }): void {
    if (answer.complete) return;
    expect(String(answer.partial), answer.text).toContain(EDITED);
    expect(answer.text).toMatch(/^INCOMPLETE/);
  }

  async function references(target: Target): Promise<{ keys: string[]; complete: boolean; text: string; partial: unknown }> {
    const answer = await agent.call('find_references', { file_path: target.file, ...cursor(corpus.root, target), include_declaration: true, limit: 100_000, ready_timeout_seconds: 240 });
    const data = ok(answer);
    return { keys: (data['locations'] as { file: string; line: number; column: number; end_line: number; end_column: number }[]).map((l) => `${l.file}:${l.line}:${l.column}-${l.end_line}:${l.end_column}`), complete: claimsComplete(data), text: answer.text, partial: data['partial'] };
  }

  interface Truth {
    header: string[];
    includer: string[];
    callers: string[];
  }
  let truth: Truth;
  let original: string;

  /**
   * After `edit` of sqlite3.c: rename refused with nothing changed (or exact), each answer exact or
   * labelled until clangd has built the file (get_diagnostics has it built), then exact and complete.
   */
  async function throughGiveUp(label: string, edit: () => void, expected: Truth): Promise<void> {
    edit();
    // First the rename (the likeliest moment to be given up on): refused with nothing changed, or exact.
    const disk = diskHash(corpus.root);
    const rename = await agent.call('rename_symbol', { file_path: FROM_HEADER.file, ...cursor(corpus.root, FROM_HEADER), new_name: 'field_sqlite3_open', dry_run: false });
    if (rename.isError) {
      expect(rename.text).toMatch(/nothing was changed.*index misses part of the workspace.*sqlite3\.c/s);
      expect(diskHash(corpus.root), 'a refused rename changes nothing on disk').toBe(disk);
      record('rename_symbol', `sqlite3_open, ${label}, given up on`, { outcome: 'partial-labelled', detail: rename.text.split('\n')[0] });
    } else {
      // clangd built the edited file in time: the rename must then be whole. Judged, then undone.
      const edits = ((ok(rename)['edits'] as { file: string; line: number; column: number }[] | undefined) ?? []).map((e) => `${e.file}:${e.line}:${e.column}`);
      record('rename_symbol', `sqlite3_open, ${label}, built in time`, compareSets(edits, expected.header.map((k) => k.replace(/-\d+:\d+$/, '')), true));
      ok(await agent.call('undo_last', {}));
    }

    // Every answer until clangd has built sqlite3.c: exact or labelled; the first of each is asked at once.
    const ask = async (round: string): Promise<boolean> => {
      const header = await references(FROM_HEADER);
      labelled(header);
      record('find_references', `sqlite3_open from sqlite3.h, ${label}, ${round}`, judgeGivenUp(header.keys, expected.header, header.complete));
      const includer = await references(FROM_INCLUDER);
      labelled(includer);
      record('find_references', `sqlite3_open from main.c, ${label}, ${round}`, judgeGivenUp(includer.keys, expected.includer, includer.complete));
      const callers = await ourCallers(CLOSE);
      const complete = claimsComplete(callers.answer.data);
      labelled({ complete, text: callers.answer.text, partial: callers.answer.data['partial'] });
      record('find_callers', `sqlite3_close from main.c, ${label}, ${round}`, judgeGivenUp(callers.keys, expected.callers, complete));
      return header.complete && includer.complete && complete;
    };
    const givenUp = !(await ask('asked at once'));

    await agent.call('get_diagnostics', { file_path: EDITED, limit: 1 });
    let whole = false;
    for (let poll = 1; poll <= POLLS && !whole; poll++) {
      whole = await ask(`poll ${poll} after get_diagnostics opened sqlite3.c`);
      if (!whole) await pause(5_000);
    }
    expect(whole, 'clangd built sqlite3.c and the answers say they are complete').toBe(true);
    // Asked again, the same questions: the answer cache and prefetch hold no partial answer.
    expect(await ask('asked again once complete')).toBe(true);
    const renamed = await agent.call('rename_symbol', { file_path: FROM_HEADER.file, ...cursor(corpus.root, FROM_HEADER), new_name: 'field_sqlite3_open', dry_run: true });
    const edits = ((ok(renamed)['edits'] as { file: string; line: number; column: number }[] | undefined) ?? []).map((e) => `${e.file}:${e.line}:${e.column}`);
    record('rename_symbol', `sqlite3_open (dry run), ${label}, once clangd has built sqlite3.c`, compareSets(edits, expected.header.map((k) => k.replace(/-\d+:\d+$/, '')), true));
    console.log(`give-up on sqlite3.c, ${label}: the first answers were ${givenUp ? 'labelled partial' : 'complete'}`);
  }

  it('after sed -i on sqlite3.c, closed: answers exact or labelled partial naming it, a rename refused; once clangd has built it, exact and complete', async () => {
    truth = { header: await trueReferences(ctx, FROM_HEADER), includer: await trueReferences(ctx, FROM_INCLUDER), callers: await trueCallers(CLOSE) };
    expect(truth.header.some((k) => k.startsWith(`${EDITED}:`)), 'clangd finds references in sqlite3.c').toBe(true);
    expect(truth.callers.some((k) => k.includes(`>${EDITED}:`)), `clangd finds callers in sqlite3.c: ${JSON.stringify(truth.callers)}`).toBe(true);
    const before = await references(FROM_HEADER);
    record('find_references', 'sqlite3_open from sqlite3.h, before the edit', compareSets(before.keys, truth.header, before.complete));
    const callersBefore = await ourCallers(CLOSE);
    record('find_callers', 'sqlite3_close from main.c, before the edit', compareSets(callersBefore.keys, truth.callers, claimsComplete(callersBefore.answer.data)));
    // find_callers opened sqlite3.c (its callers' symbols): closed again, so the edit is of a closed file.
    ok(await agent.call('close_document', { file_path: EDITED }));
    original = readFileSync(join(corpus.root, EDITED), 'utf8');

    const moved = (keys: string[]): string[] => shifted(keys, EDITED, 2);
    const movedCallers = truth.callers.map((k) => k.replace(new RegExp(`([@>]${EDITED}:)(\\d+)`), (_, head: string, line: string) => `${head}${Number(line) + 2}`));
    await throughGiveUp(
      'sqlite3.c closed, sed -i',
      () => expect(spawnSync('sed', ['-i', '-e', '1i // field: line one inserted by sed', '-e', '1i // field: line two', EDITED], { cwd: corpus.root }).status).toBe(0),
      { header: moved(truth.header), includer: moved(truth.includer), callers: movedCallers },
    );
  });

  it('sqlite3.c put back while open: the same, with the positions of before', async () => {
    expect(original, 'the first case ran').toBeDefined();
    await throughGiveUp('sqlite3.c open, put back', () => writeFileSync(join(corpus.root, EDITED), original), truth);
  });
});
