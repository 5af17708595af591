// get_cross_repo_references on real code (issue 28): the go-std corpus is the library, and Go's own
// go/format package, copied into a second module beside it (its imports of the corpus's packages
// made imports of the copies, and a go.work holding both), is the consumer. The truth: gopls
// started on the consumer, asked directly for the references of the symbol at a use of it there.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { GO_STD_MODULE, GO_STD_PACKAGES, isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';
import { claimsComplete, cursor, type Target } from './fieldSuite.js';
import { RawServer, type FieldLocation } from './rawServer.js';

const CONSUMER_PACKAGE = 'go/format';

const prepared: Corpus | NotRun = onPath('gopls') && onPath('go') ? prepareCorpus('go-std') : { notRun: 'gopls or go is not installed' };
const notRun = isNotRun(prepared) ? prepared.notRun : undefined;
if (notRun) console.warn(`field cross-repo: not run (${notRun})`);

/** go/format as module `fieldconsumer` beside the corpus, and a go.work over both; returns the consumer's root. */
function consumerBeside(library: string): string {
  const consumer = join(dirname(library), 'consumer');
  const from = join(execFileSync('go', ['env', 'GOROOT'], { encoding: 'utf8' }).trim(), 'src', CONSUMER_PACKAGE);
  mkdirSync(join(consumer, 'format'), { recursive: true });
  const version = /^go(\d+\.\d+)/.exec(execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }).trim())?.[1] ?? '1.22';
  writeFileSync(join(consumer, 'go.mod'), `module fieldconsumer\n\ngo ${version}\n`);
  for (const name of readdirSync(from).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go'))) {
    const text = readFileSync(join(from, name), 'utf8').replace(/"((?:go|encoding)\/[a-z/]+)"/g, (whole, path: string) =>
      (GO_STD_PACKAGES as readonly string[]).includes(path) ? `"${GO_STD_MODULE}/${path}"` : whole,
    );
    writeFileSync(join(consumer, 'format', name), text);
  }
  writeFileSync(join(dirname(library), 'go.work'), `go ${version}\n\nuse (\n\t./${relative(dirname(library), library)}\n\t./consumer\n)\n`);
  return consumer;
}

/** A symbol of the library and a use of it in the consumer: the same symbol, asked from both sides. */
const CASES: { name: string; declaration: Target; use: Target }[] = [
  { name: 'printer.Config', declaration: { file: 'go/printer/printer.go', needle: 'type Config struct', at: 5 }, use: { file: 'format/format.go', needle: 'printer.Config{', at: 8 } },
  { name: 'parser.ParseFile', declaration: { file: 'go/parser/interface.go', needle: 'func ParseFile(', at: 5 }, use: { file: 'format/internal.go', needle: 'parser.ParseFile(', at: 7 } },
];

describe.skipIf(notRun !== undefined)(`get_cross_repo_references: ${notRun ? `NOT RUN (${notRun})` : `go-std as the library, ${CONSUMER_PACKAGE} as a consumer module`}`, () => {
  const library = (prepared as Corpus).root;
  let consumer: string;
  let agent: AgentLspClient;
  let raw: RawServer;

  beforeAll(async () => {
    consumer = consumerBeside(library);
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: library, language_id: 'go' }));
    raw = await RawServer.start('gopls', consumer);
    await raw.idle();
  }, 300_000);
  afterAll(async () => {
    await agent?.close();
    await raw?.stop();
    (prepared as Corpus).dispose();
  });

  /** `repository file:line:column` of each location, by the root that holds it. */
  const keyed = (locations: readonly { file: string; line: number; column: number }[], repository: string) => locations.map((l) => `${repository} ${l.file}:${l.line}:${l.column}`);

  it.each(CASES)('get_cross_repo_references of $name from the library is gopls\'s references asked at a use in the consumer', async ({ name, declaration, use }) => {
    await raw.open(use.file, 'go');
    const found: FieldLocation[] = await raw.locations('textDocument/references', use.file, cursor(consumer, use), { context: { includeDeclaration: false } });
    // raw.locations gives files relative to the consumer's root: the library's are ../go-std/….
    const prefix = `${relative(consumer, library)}/`;
    const truth = [
      ...keyed(found.filter((l) => l.file.startsWith(prefix)).map((l) => ({ ...l, file: l.file.slice(prefix.length) })), 'library'),
      ...keyed(found.filter((l) => !l.file.startsWith('..')), 'consumer'),
    ];
    expect(truth.some((k) => k.startsWith('consumer ')), 'the consumer uses it').toBe(true);
    const data = ok(await agent.call('get_cross_repo_references', { file_path: declaration.file, ...cursor(library, declaration), consumer_roots: [consumer] }));
    const repositories = (data['repositories'] as { root: string; locations: FieldLocation[] }[] | undefined) ?? [];
    const ours = repositories.flatMap((r) => keyed(r.locations, r.root === consumer ? 'consumer' : r.root === library ? 'library' : r.root));
    judge({ tool: 'get_cross_repo_references', corpus: 'go-std', case: `${name}, ${CONSUMER_PACKAGE} as the consumer`, ...compareSets(ours, truth, claimsComplete(data)) });
  });
});
