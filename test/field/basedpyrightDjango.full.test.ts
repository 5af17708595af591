// basedpyright on Django, asked the moment start_lsp returns: basedpyright registers pull
// diagnostics only once its workspace has loaded and never pushes to a client that can pull, and
// its workspace/symbol answers nothing before that. Several get_diagnostics at once (one file with
// a planted error) and a find_symbol, all before the load: each answer is what basedpyright's CLI
// (diagnostics) or basedpyright asked directly after indexing (symbols) says, or says it is not.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { isNotRun, prepareCorpus, type Corpus } from './corpora.js';
import { basedpyrightCli } from './fieldCheckers.js';
import { compareSets, judge } from './fieldOutcome.js';
import { claimsComplete, ourSymbols, trueSymbols } from './fieldSuite.js';
import { RawServer, type FieldLocation } from './rawServer.js';

/** Files of every size: the planted one, a clean one, and two with many errors and warnings of their own. */
const PLANTED = 'django/utils/encoding.py';
const FILES = [PLANTED, 'django/utils/text.py', 'django/forms/fields.py', 'django/db/models/query.py'];
const PLANT = 'field_planted: int = "not an int"';
const QUERY = 'force_str';
const TIMEOUT_MS = 300_000;

type Answer = { keys: string[]; complete: boolean; text: string };

const missing = ['basedpyright-langserver', 'basedpyright'].find((b) => !onPath(b));
const prepared = missing ? { notRun: `${missing} is not installed (agent-lsp servers install python:basedpyright)` } : prepareCorpus('django');
const notRun = isNotRun(prepared) ? prepared.notRun : undefined;
if (!isNotRun(prepared)) process.once('exit', () => prepared.dispose());
if (notRun) console.warn(`field django on basedpyright: not run (${notRun})`);

describe.skipIf(notRun !== undefined)(`field, django on basedpyright, asked right after start_lsp${notRun ? ` (NOT RUN: ${notRun})` : ''}`, { timeout: TIMEOUT_MS }, () => {
  const corpus = prepared as Corpus;
  let agent: AgentLspClient;
  let raw: RawServer | undefined;
  const diagnostics = new Map<string, Answer>();
  let symbols: { keys: string[]; complete: boolean };

  beforeAll(async () => {
    const path = join(corpus.root, PLANTED);
    writeFileSync(path, `${readFileSync(path, 'utf8').replace(/\n?$/, '\n')}${PLANT}\n`);
    agent = await startAgentLsp({ args: ['--python-server', 'basedpyright'] });
    ok(await agent.call('start_lsp', { root_dir: corpus.root, language_id: 'python' }));
    const [found, ...answers] = await Promise.all([ourSymbols(agent, corpus.root, QUERY, 'python'), ...FILES.map((file) => ourDiagnostics(agent, file))]);
    symbols = found;
    FILES.forEach((file, i) => diagnostics.set(file, answers[i]!));
  }, TIMEOUT_MS);
  afterAll(async () => {
    await agent?.close();
    await raw?.stop();
    corpus?.dispose();
  });

  it('get_diagnostics of four files asked at once is what basedpyright --outputjson says, or says it is not settled', () => {
    const truth = basedpyrightCli(corpus.root, FILES);
    expect(truth.get(PLANTED)?.some((k) => k.startsWith('error ')), `the CLI sees the planted error: ${JSON.stringify(truth.get(PLANTED))}`).toBe(true);
    for (const file of FILES) {
      const ours = diagnostics.get(file)!;
      if (!ours.complete) expect(ours.text, 'an answer not complete says NOT SETTLED').toMatch(new RegExp(`${file.replace(/\./g, '\\.')}: NOT SETTLED`));
      judge({ tool: 'get_diagnostics', corpus: 'django (basedpyright)', case: `${file}${file === PLANTED ? ' + planted error' : ''}, with 3 others at once, right after start_lsp`, ...compareSets(ours.keys, truth.get(file)!, ours.complete) });
    }
  });

  it('find_symbol asked right after start_lsp is basedpyright\'s own workspace symbols once it has indexed', async () => {
    raw = await RawServer.start('basedpyright', corpus.root);
    await raw.idle();
    const truth = await trueSymbols(raw, corpus.root, QUERY);
    expect(truth.length, 'the server finds symbols').toBeGreaterThan(0);
    judge({ tool: 'find_symbol', corpus: 'django (basedpyright)', case: `"${QUERY}", asked right after start_lsp`, ...compareSets(symbols.keys, truth, symbols.complete) });
  });
});

/** One file's errors and warnings as `severity line:column` keys, whether the answer claims to be complete, and its text. */
async function ourDiagnostics(agent: AgentLspClient, file: string): Promise<Answer> {
  const answer = await agent.call('get_diagnostics', { file_path: file, limit: 100_000 });
  const data = ok(answer);
  const keys = ((data['diagnostics'] as (FieldLocation & { severity: string })[] | undefined) ?? [])
    .filter((d) => d.severity === 'error' || d.severity === 'warning')
    .map((d) => `${d.severity} ${d.line}:${d.column}`);
  return { keys, complete: claimsComplete(data), text: answer.text };
}
