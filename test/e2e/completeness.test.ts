// find_references never returns a partial answer as if it were complete.
//
// Both servers give partial answers when asked too early: pyright answers textDocument/references
// sent right after opening a file with that file's references only (until it has logged "Found N
// source files"), and typescript-language-server's syntax server does the same until tsserver has
// loaded the project. So every test here starts a FRESH agent-lsp on a workspace of a few hundred
// files and asks at once, before any server has indexed anything.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generatePythonProject, generateTypeScriptProject, type GeneratedProject } from '../helpers/generateFixtures.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { descendants, isAlive, waitUntil } from '../helpers/processes.js';

interface LocationOut {
  file: string;
  line: number;
  column: number;
}

/** One agent-lsp process with its (debug-level) log, kept to explain a failure. */
interface Session {
  agent: AgentLspClient;
  log: () => string;
}

const sessions: Session[] = [];
let home: string;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'agent-lsp-home-'));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => closeAndReap(s.agent)));
});

/** A new agent-lsp front: nothing started, nothing indexed, nothing cached. */
async function freshAgentLsp(): Promise<Session> {
  const agent = await startAgentLsp({ env: { AGENT_LSP_HOME: home, AGENT_LSP_LOG: 'debug' } });
  let log = '';
  // The helper keeps stderr to itself; listen too, so a failure can show what the servers said.
  (agent.client.transport as StdioClientTransport | undefined)?.stderr?.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-200_000);
  });
  const session = { agent, log: () => log };
  sessions.push(session);
  return session;
}

/** Closes the client and checks that the front and every server it started have exited. */
async function closeAndReap(agent: AgentLspClient): Promise<void> {
  const tree = [agent.pid, ...descendants(agent.pid)];
  await agent.close();
  try {
    await waitUntil(() => tree.every((pid) => !isAlive(pid)), 15_000, `agent-lsp (pid ${agent.pid}) and its servers to exit`);
  } catch (err) {
    const left = tree.filter(isAlive);
    // These are processes this test started: end them by pid, then fail.
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
    throw new Error(`${(err as Error).message}; still running: ${left.join(', ')}`);
  }
}

function serverLog(session: Session): string {
  return session
    .log()
    .split('\n')
    .filter((l) => /server log:|readiness|ready|error|warn/i.test(l))
    .slice(-40)
    .join('\n');
}

function countByFile(locations: readonly LocationOut[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const l of locations) counts[l.file] = (counts[l.file] ?? 0) + 1;
  return counts;
}

function referencesArgs(project: GeneratedProject): { file_path: string; position_pattern: string } {
  return { file_path: project.definingFile, position_pattern: project.positionPattern };
}

/** The whole answer, checked file by file against what the generator wrote. */
function expectCompleteAnswer(refs: Record<string, unknown>, project: GeneratedProject, session: Session): void {
  const why = `find_references answered ${JSON.stringify({ ...refs, locations: `(${String((refs['locations'] as unknown[] | undefined)?.length)} items)` })}\nlog:\n${serverLog(session)}`;
  expect(refs['ready'], why).toBe(true);
  expect(refs['total'], why).toBe(project.expectedReferences);
  expect(refs['complete'], why).toBe(true);
  expect(refs['files'], why).toBe(project.expectedFiles);
  const locations = refs['locations'] as LocationOut[];
  expect(locations).toHaveLength(project.expectedReferences);
  expect(countByFile(locations)).toEqual(project.expectedByFile);
}

const languages = [
  { name: 'Python (pyright)', generate: generatePythonProject },
  { name: 'TypeScript (tsserver)', generate: generateTypeScriptProject },
] as const;

describe.each(languages)('find_references on a fresh $name workspace', ({ generate }) => {
  let dir: string;
  let project: GeneratedProject;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-completeness-'));
    project = generate(dir);
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('the fixture is big and spreads the references over many files', () => {
    expect(project.sourceFiles).toBeGreaterThanOrEqual(300);
    expect(project.expectedFiles).toBeGreaterThan(50);
    // Below find_references' page size, so one call carries the whole answer.
    expect(project.expectedReferences).toBeLessThanOrEqual(300);
  });

  it('asked right after start_lsp, returns every reference in every file', async () => {
    const session = await freshAgentLsp();
    const started = ok(await session.agent.call('start_lsp', { root_dir: project.root }));
    expect(started['ready']).toBe(true);
    const refs = ok(await session.agent.call('find_references', referencesArgs(project)));
    expectCompleteAnswer(refs, project, session);
  });
});

describe('readiness on a fresh Python workspace', () => {
  let dir: string;
  let project: GeneratedProject;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-completeness-'));
    project = generatePythonProject(dir);
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('wait_for_ready: false answers not ready (no locations), then a waiting call answers in full', async () => {
    const session = await freshAgentLsp();
    ok(await session.agent.call('start_lsp', { root_dir: project.root }));

    const early = await session.agent.call('find_references', { ...referencesArgs(project), wait_for_ready: false });
    const why = `early answer: ${early.text}\n${JSON.stringify(early.data)}\nlog:\n${serverLog(session)}`;
    expect(early.isError, why).toBe(false);
    expect(early.data['ready'], why).toBe(false);
    expect(['starting', 'indexing'], why).toContain(early.data['state']);
    expect(early.data['progress'], why).toMatchObject({ title: expect.any(String) as unknown });
    expect(early.data['locations'], why).toBeUndefined();
    expect(early.data['total'], why).toBeUndefined();
    expect(early.text).toMatch(/not ready/i);

    const refs = ok(await session.agent.call('find_references', referencesArgs(project)));
    expectCompleteAnswer(refs, project, session);
  });

  it('sends MCP progress notifications while it waits, then answers in full', async () => {
    const session = await freshAgentLsp();
    ok(await session.agent.call('start_lsp', { root_dir: project.root }));

    const messages: (string | undefined)[] = [];
    const refs = ok(await session.agent.call('find_references', referencesArgs(project), { onProgress: (m) => messages.push(m) }));
    expect(messages.length, `no progress notification; log:\n${serverLog(session)}`).toBeGreaterThan(0);
    // pyright's own readiness progress while it indexes, or the call's heartbeat once the request is
    // sent and pyright is still working on it (at least every 1.5 s): both name the server waited on.
    for (const m of messages) expect(m).toMatch(/^(pyright: |find_references: waiting for pyright to answer textDocument\/references )/);
    expectCompleteAnswer(refs, project, session);
  });
});
