// Issue 29 item 3 / issue 32 item 3: an evaluation (workspace or file scope, its baselines and its
// last settling included) holds the other clients of its broker a bounded time. It runs in steps,
// each one lease; between two, others' requests run, on the text they would read without the
// evaluation. Its answer is the one it gives in a single section.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri, type BrokerStats } from '@agent-lsp/protocol';
import { closeFront, readyDaemon, stopAllBrokers } from '../helpers/brokers.js';
import { generatePythonProject, type GeneratedProject } from '../helpers/generateFixtures.js';
import { ok, startAgentLsp, type AgentLspClient, type ToolAnswer } from '../helpers/mcpClient.js';
import { evaluationConclusion } from '../helpers/speculation.js';
import { rawClient, type RawClient } from '../helpers/rawBroker.js';

/** 40 modules using compute_total: a workspace evaluation of many steps. */
const SHAPE = { modules: 160, perPackage: 20, usersEvery: 4 };
const FILE = 'ledger/core/totals.py';
const OLD_SIGNATURE = 'def compute_total(prices: list[float], discount: float = 0.0) -> float:';
const NEW_SIGNATURE = 'def compute_total(prices: list[float], discount: float, extra: int) -> float:';
/** Short steps, so that even a warm evaluation of this project takes several. */
const STEP_MS = 300;
/**
 * Steps so short that every request of a file-scope evaluation is cut at least once (a step then
 * doubles until the request fits): each part of it, its last settling included, takes several.
 */
const TINY_STEP_MS = 1;

describe('a workspace evaluation through a broker (pyright), in steps', () => {
  let root: string;
  let home: string;
  let project: GeneratedProject;
  const fronts: AgentLspClient[] = [];
  let observer: RawClient;
  /** A front whose evaluations take steps of `evaluationStepMs` (null: one section), with no baseline cached yet. */
  const front = async (evaluationStepMs: number | null) => {
    const agent = await startAgentLsp({ args: ['--daemon', 'auto'], env: { AGENT_LSP_HOME: home }, hooks: { evaluationStepMs } });
    fronts.push(agent);
    ok(await agent.call('start_lsp', { root_dir: project.root, language_id: 'python' }));
    return agent;
  };
  const preview = (agent: AgentLspClient, scope: 'workspace' | 'file' = 'workspace') =>
    agent.call('preview_edit', { language: 'python', file_path: FILE, old_text: OLD_SIGNATURE, new_text: NEW_SIGNATURE, scope, timeout_ms: scope === 'file' ? 120_000 : 30_000 });
  const stats = () => observer.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null);

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-stepped-')));
    home = join(root, '.home');
    project = generatePythonProject(join(root, 'project'), SHAPE);
    await front(null);
    observer = await rawClient((await readyDaemon(home, 'python')).socket, { canPull: true });
  });
  afterAll(async () => {
    observer?.close();
    for (const agent of fronts) await closeFront(agent);
    await stopAllBrokers(home);
    rmSync(root, { recursive: true, force: true });
  });

  it('concludes what the same evaluation concludes in one section', async () => {
    const [oneSection, stepped] = [await front(null), await front(STEP_MS)];
    const before = (await stats()).leasesGranted;
    const reference = await preview(oneSection);
    const single = (await stats()).leasesGranted;
    const inSteps = await preview(stepped);
    const after = (await stats()).leasesGranted;
    expect(single - before, 'leases of the one-section evaluation').toBe(1);
    expect(after - single, 'leases of the stepped evaluation').toBeGreaterThan(2);
    const expected = evaluationConclusion(reference);
    // The reference is right (every call of compute_total breaks), so the comparison means something.
    expect(new Set(expected.introduced.map((k) => k.split(':')[0])).size, reference.text).toBe(project.userFiles + 1);
    expect(expected.confidence).toBe('high');
    expect(evaluationConclusion(inSteps), inSteps.text).toEqual(expected);
  });

  /** A module that imports compute_total by name, opened by the observer: its hover names the signature the server holds. */
  let hoverOpened: Promise<() => Promise<string>> | undefined;
  const observerHover = () => (hoverOpened ??= openHover());
  const openHover = async () => {
    const user = Object.keys(project.expectedByFile).find((rel) => readFileSync(join(project.root, rel), 'utf8').includes('import compute_total'));
    expect(user).toBeDefined();
    const path = join(project.root, user ?? '');
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('= compute_total('));
    const uri = pathToUri(path);
    await observer.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'python', version: 1, text } });
    return async () => {
      const h = await observer.rpc.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line, character: (lines[line] ?? '').indexOf('compute_total') + 2 } });
      return (h?.contents as MarkupContent | undefined)?.value ?? '';
    };
  };

  it('concludes at file scope what the same evaluation concludes in one section', async () => {
    const [oneSection, stepped] = [await front(null), await front(TINY_STEP_MS)];
    const before = (await stats()).leasesGranted;
    const reference = await preview(oneSection, 'file');
    const single = (await stats()).leasesGranted;
    const inSteps = await preview(stepped, 'file');
    const after = (await stats()).leasesGranted;
    expect(single - before, 'leases of the one-section evaluation').toBe(1);
    // Its baseline, the symbols of the on-disk text and the last settling: each cut at least once.
    expect(after - single, 'leases of the stepped evaluation').toBeGreaterThan(3);
    const expected = evaluationConclusion(reference);
    // The reference is right (the edit breaks nothing in its own file, and names the changed declaration).
    expect(expected.changed_declarations, reference.text).toEqual([expect.stringContaining('compute_total')]);
    expect(evaluationConclusion(inSteps), inSteps.text).toEqual(expected);
  });

  /**
   * Runs `evaluation` (just started) and, once the broker's stats show a lease `leaseSeen` accepts,
   * the observer's hover. The evaluation must end after the hover; it returns what the hover read,
   * the leases granted when it was asked and when it was answered, and once the evaluation ended.
   */
  const hoverDuring = async (evaluation: Promise<ToolAnswer>, leaseSeen: (s: BrokerStats) => boolean) => {
    const hover = await observerHover();
    const order: string[] = [];
    const evaluated = evaluation.then((answer) => {
      order.push('evaluation');
      return answer;
    });
    let s = await stats();
    while (!leaseSeen(s)) {
      expect(order, 'the evaluation ended before the lease was seen').toEqual([]);
      s = await stats();
    }
    const during = await hover();
    order.push('hover');
    const grantedAtHover = (await stats()).leasesGranted;
    ok(await evaluated);
    expect(order).toEqual(['hover', 'evaluation']);
    expect(during, 'the hover read the session text').not.toContain('extra');
    expect(during).toMatch(/discount: float = 0\b/);
    return { grantedAtAsk: s.leasesGranted, grantedAtHover, grantedAfter: (await stats()).leasesGranted };
  };

  it("answers another client's hover during a file-scope preview with a long timeout_ms, between its steps, from the disk's text", async () => {
    expect(await (await observerHover())()).toMatch(/discount: float = 0\b/);
    const stepped = await front(TINY_STEP_MS);
    const granted = (await stats()).leasesGranted;
    // Asked while the evaluation holds a lease (its first steps: the baseline of the edited file).
    const { grantedAtAsk, grantedAtHover, grantedAfter } = await hoverDuring(preview(stepped, 'file'), (s) => s.lease !== null && s.leasesGranted > granted);
    // The hover waited for the lease in progress at most, and the evaluation went on in later leases.
    // The counts are read by separate stats requests around it: with 1 ms steps one lease may begin
    // between the read before and the hover's arrival, and one after its answer before the read after
    // (CI saw +2). One lease held over the whole evaluation (as before steps) fails the order check.
    expect(grantedAtHover, 'leases granted while the hover waited').toBeLessThanOrEqual(grantedAtAsk + 2);
    expect(grantedAfter).toBeGreaterThan(grantedAtHover);
  });

  it("answers another client's hover between its steps, from the disk's text", async () => {
    expect(await (await observerHover())()).toMatch(/discount: float = 0\b/);
    const stepped = await front(STEP_MS);
    const granted = (await stats()).leasesGranted;
    // Asked while the evaluation holds its first lease (the server then holds the new signature).
    const { grantedAtHover, grantedAfter } = await hoverDuring(preview(stepped), (s) => {
      expect(s.leasesGranted, 'its first lease was not seen').toBeLessThanOrEqual(granted + 1);
      return s.lease !== null && s.leasesGranted === granted + 1;
    });
    // The evaluation went on in later leases after the hover was answered: it did not wait for its end.
    expect(grantedAfter).toBeGreaterThan(grantedAtHover);
  });
});
