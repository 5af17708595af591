// Fair queuing on real brokers: one client's flood of references does not hold back another
// client's hovers, and the server never has more than the bound of client requests at once.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hover, Location, Position } from 'vscode-languageserver-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import { ErrorCodes, pathToUri, type BrokerStats } from '@agent-lsp/protocol';
import { generatePythonProject, type GeneratedProject } from '../helpers/generateFixtures.js';
import { rawClient, startTestBroker, type RawClient, type TestBroker } from '../helpers/rawBroker.js';

const FLOOD = 200;
const HOVERS = 10;
/** The broker's default bound (DEFAULT_MAX_IN_FLIGHT). */
const BOUND = 4;

/** Where `@@` stands in the pattern, in the file's text. */
function positionOf(text: string, pattern: string): Position {
  const offset = text.indexOf(pattern.replace('@@', '')) + pattern.indexOf('@@');
  const before = text.slice(0, offset).split('\n');
  return { line: before.length - 1, character: (before.at(-1) ?? '').length };
}

const servers = [{ name: 'pyright', language: 'python', languageId: 'python', generate: generatePythonProject }] as const;

describe.each(servers)('fair queuing between clients of a $name broker', ({ language, languageId, generate }) => {
  let dir: string | undefined;
  let broker: TestBroker | undefined;
  const clients: RawClient[] = [];

  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await broker?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("answers a light client's hovers while another client's flood of references is still being worked through", async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-fairness-')));
    const project: GeneratedProject = generate(dir, { modules: 120, perPackage: 20, usersEvery: 3 });
    broker = await startTestBroker(project.root, language);
    const [flooder, light] = [await rawClient(broker.info.socket, { canPull: true }), await rawClient(broker.info.socket, { canPull: true })];
    clients.push(flooder, light);
    const text = readFileSync(project.definingFile, 'utf8');
    const uri = pathToUri(project.definingFile);
    const position = positionOf(text, project.positionPattern);
    for (const c of [flooder, light]) await c.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
    const referencesOnce = () => flooder.rpc.sendRequest<Location[]>('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } });
    expect(await referencesOnce()).toHaveLength(project.expectedReferences);
    expect(await light.rpc.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position })).toBeTruthy();

    const finished: string[] = [];
    let firstAnswer: () => void = () => undefined;
    const flooding = new Promise<void>((r) => (firstAnswer = r));
    const flood = Array.from({ length: FLOOD }, () =>
      referencesOnce().then((refs) => {
        finished.push('references');
        firstAnswer();
        return refs.length;
      }),
    );
    await flooding;
    // The flood has reached the broker: the server has the bound's worth, the rest waits its turn.
    // A request spends a moment in the broker's freshness check before it joins the queue, so
    // sample until one is seen waiting (every sample within the bound).
    let queuedSeen = 0;
    for (let sample = 0; sample < 50 && queuedSeen === 0 && finished.length < FLOOD; sample++) {
      const stats = await light.rpc.sendRequest<BrokerStats>('$/agentLsp/stats', null);
      expect(stats.requests.inFlight).toBeLessThanOrEqual(BOUND);
      queuedSeen = stats.requests.queued;
    }
    expect(queuedSeen).toBeGreaterThan(0);

    const hovers = Array.from({ length: HOVERS }, () =>
      light.rpc.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position }).then((h) => {
        finished.push('hover');
        return h;
      }),
    );
    const answered = await Promise.all(hovers);
    expect(answered.every((h) => h !== null)).toBe(true);
    // Every hover came back while the flood was still being worked through: none queued behind it.
    const referencesDone = finished.filter((f) => f === 'references').length;
    expect(referencesDone).toBeLessThan(FLOOD);
    const counts = await Promise.all(flood);
    expect(new Set(counts)).toEqual(new Set([project.expectedReferences]));
    expect(finished.at(-1)).toBe('references');

    // A request cancelled while it waits behind a flood is answered by the broker, and never sent.
    const backlog = Array.from({ length: FLOOD }, referencesOnce);
    await Promise.race(backlog);
    const cancel = new CancellationTokenSource();
    const cancelled = flooder.rpc.sendRequest('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } }, cancel.token);
    // Answered at once, after the broker has taken the request above (messages are handled in order).
    await flooder.rpc.sendRequest('$/agentLsp/stats', null);
    cancel.cancel();
    await expect(cancelled).rejects.toMatchObject({ code: ErrorCodes.RequestCancelled, message: expect.stringMatching(/not sent to the server: cancelled/) });
    expect(await Promise.all(backlog)).toHaveLength(FLOOD);
  });
});
