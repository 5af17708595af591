// Issue 29 item 3 / issue 32 item 3 on gopls and clangd, shared through a broker with an editor that
// holds one of the files. Both evaluate in steps, each one lease: the editor's hover is answered
// between two, from the disk's text, and the answer is the one a single section gives (clangd, which
// only pushes, settles the session's text in one step of up to timeout_ms: see evaluateFiles). A
// clangd section must not wait out its time because the editor holds the header it edits.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri, type BrokerStats } from '@agent-lsp/protocol';
import { closeFront, fixtureRoot, readyDaemon, stopAllBrokers } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { waitUntil } from '../helpers/processes.js';
import { evaluationConclusion } from '../helpers/speculation.js';
import { rawClient, type RawClient } from '../helpers/rawBroker.js';

/** Steps so short that every request is cut at least once, and the last settling several times. */
const TINY_STEP_MS = 1;

interface SharedCase {
  server: string;
  install: string;
  fixture: string;
  /** The language a tool call names, and the one of the broker's daemon.json. */
  language: string;
  brokerLanguage: string;
  /** The edited file, relative to the root, and the edit (a signature its dependents break on). */
  file: string;
  oldText: string;
  newText: string;
  /** The file the editor holds, and the word it hovers in the line holding `hoverLine`. */
  hoverFile: string;
  hoverLine: string;
  hoverWord: string;
  /** What the hover shows for the disk's text, and a word only the session's text has. */
  diskSignature: RegExp;
  sessionWord: string;
}

const GO: SharedCase = {
  server: 'gopls',
  install: 'go install golang.org/x/tools/gopls@latest',
  fixture: 'go-basic',
  language: 'go',
  brokerLanguage: 'go',
  file: 'go-basic/geometry/geometry.go',
  oldText: 'func Distance(a, b Point) float64 {',
  newText: 'func Distance(a, b Point, scale float64) float64 {',
  hoverFile: 'go-basic/report.go',
  hoverLine: 'geometry.Distance(points[0], q)',
  hoverWord: 'Distance',
  diskSignature: /Distance\(a geometry.Point, b geometry.Point\) float64/,
  sessionWord: 'scale',
};

const CPP: SharedCase = {
  server: 'clangd',
  install: 'apt-get install clangd',
  fixture: 'cpp-basic',
  language: 'cpp',
  brokerLanguage: 'c',
  file: 'cpp-basic/person.h',
  oldText: 'int ageIn(int year) const;',
  newText: 'int ageIn(int year, int month) const;',
  // The editor holds the edited header itself.
  hoverFile: 'cpp-basic/person.h',
  hoverLine: 'int ageIn(int year) const;',
  hoverWord: 'ageIn',
  diskSignature: /int year\b/,
  sessionWord: 'month',
};

/** A root with the case's fixture, a broker for it, and an editor (a plain LSP client) holding `hoverFile`. */
function sharedBroker(c: SharedCase) {
  const env: { root: string; home: string; observer: RawClient | undefined; fronts: AgentLspClient[] } = { root: '', home: '', observer: undefined, fronts: [] };
  // Shared through a broker when asked (--daemon always, or an editor's agent-lsp lsp).
  const front = async (evaluationStepMs: number | null | undefined) => {
    const agent = await startAgentLsp({ args: ['--daemon', 'always'], env: { AGENT_LSP_HOME: env.home }, hooks: evaluationStepMs === undefined ? {} : { evaluationStepMs } });
    env.fronts.push(agent);
    ok(await agent.call('start_lsp', { root_dir: env.root, language_id: c.language }));
    return agent;
  };
  beforeAll(async () => {
    env.root = fixtureRoot(c.fixture);
    env.home = join(env.root, '.home');
    await front(null);
    env.observer = await rawClient((await readyDaemon(env.home, c.brokerLanguage)).socket, { canPull: false });
  });
  afterAll(async () => {
    env.observer?.close();
    for (const agent of env.fronts) await closeFront(agent);
    await stopAllBrokers(env.home);
    rmSync(env.root, { recursive: true, force: true });
  });
  const observer = () => env.observer as RawClient;
  return {
    root: () => env.root,
    observer,
    front,
    preview: (agent: AgentLspClient) => agent.call('preview_edit', { language: c.language, file_path: c.file, old_text: c.oldText, new_text: c.newText, scope: 'workspace', timeout_ms: 30_000 }),
    stats: () => observer().rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null),
    /** Opens `hoverFile` in the editor; returns its hover. */
    async editorHolds(): Promise<() => Promise<string>> {
      const path = join(env.root, c.hoverFile);
      const text = readFileSync(path, 'utf8');
      const lines = text.split('\n');
      const line = lines.findIndex((l) => l.includes(c.hoverLine));
      const uri = pathToUri(path);
      await observer().rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: c.language, version: 1, text } });
      return async () => {
        const h = await observer().rpc.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line, character: (lines[line] ?? '').indexOf(c.hoverWord) + 1 } });
        return (h?.contents as MarkupContent | undefined)?.value ?? '';
      };
    },
  };
}

/**
 * The editor's hover, asked while a 1 ms-step workspace preview of `c` runs, is answered between two
 * of its leases from the disk's text, and the stepped preview concludes exactly what one section
 * does (which examined both `users` and found them broken, so the comparison means something).
 */
async function steppedLikeOneSection(c: SharedCase, shared: ReturnType<typeof sharedBroker>, users: string[]): Promise<ReturnType<typeof evaluationConclusion>> {
  const hover = await shared.editorHolds();
  expect(await hover()).toMatch(c.diskSignature);
  const [oneSection, stepped] = [await shared.front(null), await shared.front(TINY_STEP_MS)];
  const before = (await shared.stats()).leasesGranted;
  const reference = await shared.preview(oneSection);
  expect((await shared.stats()).leasesGranted - before, 'leases of the one-section evaluation').toBe(1);

  const granted = (await shared.stats()).leasesGranted;
  const order: string[] = [];
  const evaluation = shared.preview(stepped).then((answer) => {
    order.push('evaluation');
    return answer;
  });
  let s = await shared.stats();
  while (!(s.lease && s.leasesGranted > granted)) {
    expect(order, 'the evaluation ended before a lease of it was seen').toEqual([]);
    s = await shared.stats();
  }
  const during = await hover();
  order.push('hover');
  const grantedAtHover = (await shared.stats()).leasesGranted;
  const inSteps = await evaluation;
  expect(order).toEqual(['hover', 'evaluation']);
  expect(during, 'the hover read the session text').not.toContain(c.sessionWord);
  expect(during).toMatch(c.diskSignature);
  // The hover waited for the lease in progress at most (the stats read around it may see one
  // more begin), and the evaluation went on in later leases.
  expect(grantedAtHover, 'leases granted while the hover waited').toBeLessThanOrEqual(s.leasesGranted + 2);
  expect((await shared.stats()).leasesGranted).toBeGreaterThan(grantedAtHover);

  const expected = evaluationConclusion(reference);
  // The reference examined both users of the changed signature and found them broken.
  expect(expected.dependents, reference.text).toEqual({ found: 2, examined: 2, not_examined: 0 });
  expect(new Set(expected.introduced.map((k) => k.split(':')[0])), reference.text).toEqual(new Set(users));
  expect(expected.confidence, reference.text).toBe('high');
  expect(evaluationConclusion(inSteps), inSteps.text).toEqual(expected);
  return expected;
}

const installed = (c: SharedCase) => {
  const found = onPath(c.server);
  if (!found) console.warn(`${c.server} is not installed: its shared evaluation test did not run (${c.install})`);
  return found;
};

const goInstalled = installed(GO);
describe.skipIf(!goInstalled)(goInstalled ? 'a gopls workspace evaluation through a broker, in steps' : 'a gopls workspace evaluation in steps (gopls NOT INSTALLED — did not run)', () => {
  const shared = sharedBroker(GO);

  it("answers the editor's hover between its steps, from the disk's text, and concludes what one section does", () => steppedLikeOneSection(GO, shared, ['go-basic/main.go', 'go-basic/report.go']), 90_000);
});

const clangdInstalled = installed(CPP);
describe.skipIf(!clangdInstalled)(clangdInstalled ? 'a clangd workspace evaluation through a broker, the header held by an editor' : 'a clangd workspace evaluation through a broker (clangd NOT INSTALLED — did not run)', () => {
  const shared = sharedBroker(CPP);

  it("examines the header's users against the session's header, in one section", async () => {
    const hover = await shared.editorHolds();
    expect(await hover()).toMatch(CPP.diskSignature);
    // The editor holds a user of the header too: the evaluation opens it afresh in its lease (built
    // against the session's header), and after the lease the editor gets it built on the disk's.
    const user = join(shared.root(), 'cpp-basic/main.cpp');
    const userUri = pathToUri(user);
    await shared.observer().rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: userUri, languageId: 'cpp', version: 1, text: readFileSync(user, 'utf8') } });
    await waitUntil(() => shared.observer().pushes.some((p) => p.uri === userUri && p.version === 1), 60_000, "the editor's first push of main.cpp");
    const agent = await shared.front(null);
    const from = shared.observer().pushes.length;
    // Its first section checks the dependents' baselines: the server holds them already, built
    // before the editor opened the header, so no push of theirs settles, and none comes unless the
    // broker has the server build them afresh (before: each waited out its 60 s, then not examined).
    const raw = await shared.preview(agent);
    const answer = evaluationConclusion(raw);
    expect(answer.dependents, raw.text).toEqual({ found: 2, examined: 2, not_examined: 0 });
    expect(answer.files, raw.text).toEqual(['cpp-basic/main.cpp true', 'cpp-basic/person.cpp true', 'cpp-basic/person.h true']);
    expect(answer.confidence).toBe('high');
    // Both users break on the new signature (clangd runs with --use-dirty-headers).
    expect(answer.introduced).toEqual(expect.arrayContaining([expect.stringMatching(/^cpp-basic\/main\.cpp:7: Too few arguments/), expect.stringMatching(/^cpp-basic\/person\.cpp:7: Out-of-line definition of 'ageIn'/)]));
    // The editor reads the disk's header again, and gets main.cpp's diagnostics of the disk's text.
    expect(await hover()).not.toContain(CPP.sessionWord);
    const editorsUser = () => shared.observer().pushes.slice(from).filter((p) => p.uri === userUri);
    await waitUntil(() => editorsUser().some((p) => p.version === 1), 60_000, 'a push of main.cpp built after the lease');
    expect(editorsUser().flatMap((p) => p.diagnostics.map((d) => d.message)).filter((m) => JSON.stringify(m).includes('Too few arguments'))).toEqual([]);
  }, 90_000);
});

describe.skipIf(!clangdInstalled)(clangdInstalled ? 'a clangd workspace evaluation through a broker, in steps' : 'a clangd workspace evaluation in steps (clangd NOT INSTALLED — did not run)', () => {
  const shared = sharedBroker(CPP);

  // clangd only pushes: the first phase goes in steps, the settling of the session's text in one
  // step of up to timeout_ms (a step's end must not cut it: see evaluateFiles).
  it("answers the editor's hover on the header between its steps, from the disk's text, and concludes what one section does", async () => {
    const expected = await steppedLikeOneSection(CPP, shared, ['cpp-basic/main.cpp', 'cpp-basic/person.cpp']);
    // A front of its own (production step length): shared through a broker, it steps too (before: one lease).
    const byDefault = await shared.front(undefined);
    const before = (await shared.stats()).leasesGranted;
    const answer = await shared.preview(byDefault);
    expect((await shared.stats()).leasesGranted - before, 'leases of an evaluation with the default steps').toBeGreaterThan(1);
    expect(evaluationConclusion(answer), answer.text).toEqual(expected);
  }, 150_000);
});
