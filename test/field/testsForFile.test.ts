// get_tests_for_file on real code with real tests (issue 28): modules of Python's standard library
// and their own test modules from CPython's test package (test/test_textwrap.py …, with
// test/support). The truth: the test files (under test/) whose code the same pyright, asked
// directly, finds referencing a top-level symbol of the module, with those symbols, and the test
// module named after it (test_<module>.py). The modules are copies in a package (corpora.ts).
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { isNotRun, prepareCorpus, PY_STDLIB_MODULES, PY_STDLIB_PACKAGE, type Corpus } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';
import { RawServer, type LspRange } from './rawServer.js';

/** get_tests_for_file asks references for this many top-level symbols at most, and says when there were more. */
const MAX_SYMBOLS = 40;

const prepared = prepareCorpus('py-stdlib');
const notRun = isNotRun(prepared) ? prepared.notRun : undefined;
if (notRun) console.warn(`field py-stdlib: not run (${notRun})`);

describe.skipIf(notRun !== undefined)(`get_tests_for_file on ${notRun ? `the Python standard library (NOT RUN: ${notRun})` : (prepared as Corpus).label}`, () => {
  const corpus = prepared as Corpus;
  let agent: AgentLspClient;
  let raw: RawServer;

  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: corpus.root, language_id: 'python' }));
    raw = await RawServer.start('pyright', corpus.root);
    await raw.idle();
  }, 300_000);
  afterAll(async () => {
    await agent?.close();
    await raw?.stop();
    corpus.dispose();
  });

  /** `test file [how found] symbols` for each test of a module, by the server asked directly. */
  async function truthFor(file: string): Promise<{ keys: string[]; cut: boolean }> {
    await raw.open(file, 'python');
    const top = (await raw.request<{ name: string; selectionRange: LspRange }[] | null>('textDocument/documentSymbol', { textDocument: { uri: raw.uri(file) } })) ?? [];
    const uses = new Map<string, Set<string>>();
    for (const symbol of top.slice(0, MAX_SYMBOLS)) {
      const refs = (await raw.request<{ uri: string }[] | null>('textDocument/references', { textDocument: { uri: raw.uri(file) }, position: symbol.selectionRange.start, context: { includeDeclaration: false } })) ?? [];
      for (const r of refs) {
        const rel = relative(corpus.root, fileURLToPath(r.uri));
        if (rel.startsWith('test/')) uses.set(rel, (uses.get(rel) ?? new Set()).add(symbol.name));
      }
    }
    const named = `test/test_${file.replace(/^.*\/|\.py$/g, '')}.py`;
    const tests = new Set([...uses.keys(), ...(existsSync(join(corpus.root, named)) ? [named] : [])]);
    const keys = [...tests].map((t) => key(t, t === named, [...(uses.get(t) ?? [])]));
    return { keys, cut: top.length > MAX_SYMBOLS };
  }

  const key = (file: string, naming: boolean, symbols: readonly string[]): string =>
    `${file} [${[...(naming ? ['naming'] : []), ...(symbols.length > 0 ? ['references'] : [])].join(', ')}] ${[...symbols].sort().join(', ')}`;

  it.each(PY_STDLIB_MODULES.map((m) => `${PY_STDLIB_PACKAGE}/${m}.py`))('get_tests_for_file of %s is its test module and every test file pyright finds using it', async (file) => {
    const truth = await truthFor(file);
    expect(truth.keys.filter((k) => k.includes('[naming, references]')), 'its test module uses it (pyright resolves the copy, not typeshed\'s stub)').toHaveLength(1);
    const data = ok(await agent.call('get_tests_for_file', { file_path: file }));
    const ours = ((data['tests'] as { file: string; found_by: string[]; symbols?: string[] }[] | undefined) ?? []).map((t) => key(t.file, t.found_by.includes('naming'), t.symbols ?? []));
    const result = compareSets(ours, truth.keys, data['complete'] === true);
    judge({ tool: 'get_tests_for_file', corpus: 'py-stdlib', case: file, ...result });
    // A module with more top-level symbols than are asked about gives an answer that says so.
    expect(data['complete']).toBe(!truth.cut);
  });
});
