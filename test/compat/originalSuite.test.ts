// The original agent-lsp's own assertion suite (its 67 Go tool cases, ../shared/original-suite),
// run against us as its CI runs it against the original (`mcp-assert ci --reuse-server`): a front
// started as `agent-lsp go:gopls` with AGENT_LSP_OUTPUT_FORMAT=json, shared by the cases in turn, on
// one copy of its Go fixture in a directory named `go` (later cases see earlier cases' writes, as in
// its CI). The cases that use skills run isolated, each in a fresh front (as mcp-assert isolates
// them: get_skill_phase expects no skill active, after cases that activate them); they write
// nothing, so the shared front never has to notice another process's writes.
// Every case is reported; where the suite or gopls is absent, "not run".
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { captureJsonPath, firstFailure, readOriginalCases, substitute, type OriginalCase } from './mcpAssert.js';

const SUITE = join(REPO_ROOT, '..', 'shared', 'original-suite');
const missing = !existsSync(join(SUITE, 'cases')) ? `the suite is not at ${SUITE}` : !onPath('gopls') ? 'gopls is not installed (go install golang.org/x/tools/gopls@v0.23.0)' : undefined;
if (missing) console.warn(`the original agent-lsp's suite did not run: ${missing}`);
const cases = missing ? [] : readOriginalCases(join(SUITE, 'cases'));

/**
 * Cases where we answer otherwise on purpose, each argued in docs/migrating.md (which must name
 * the case): our answer is asserted instead of the original's, so a change to either shows.
 */
const ARGUED: Record<string, { isError: boolean; text: RegExp }> = {
  'add_workspace_folder.yaml': { isError: true, text: /^path \/.*\/go\/hello does not exist\.$/ },
  'remove_workspace_folder.yaml': { isError: true, text: /^path \/.*\/go\/hello is not a directory\.$/ },
};
const MIGRATING = readFileSync(join(REPO_ROOT, 'docs', 'migrating.md'), 'utf8');

/** Tools whose state (the active skill and its phase) outlives the case: their cases get a front of their own. */
const SKILL_TOOLS = new Set(['activate_skill', 'deactivate_skill', 'get_skill_phase']);
const isolated = (c: OriginalCase) => [...c.setup, c.assert].some((step) => SKILL_TOOLS.has(step.tool));

describe.skipIf(missing !== undefined)(`the original agent-lsp's own suite, server go:gopls${missing ? ` (NOT RUN — ${missing})` : ''}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-original-suite-'));
  const fixture = join(dir, 'go');
  const startFront = () => startAgentLsp({ args: ['go:gopls'], env: { AGENT_LSP_OUTPUT_FORMAT: 'json' }, cwd: fixture });
  let shared: AgentLspClient | undefined;
  let own: AgentLspClient | undefined;

  beforeAll(() => cpSync(join(SUITE, 'fixture-go'), fixture, { recursive: true }));
  afterEach(async () => {
    await own?.close();
    own = undefined;
  });
  afterAll(async () => {
    await shared?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(cases)('$file: $name', async (c) => {
    const front = isolated(c) ? (own = await startFront()) : (shared ??= await startFront());
    const vars: Record<string, string> = { fixture };
    for (const step of c.setup) {
      const answer = await front.call(step.tool, substitute(step.args ?? {}, vars) as Record<string, unknown>);
      for (const [name, path] of Object.entries(step.capture ?? {})) vars[name] = captureJsonPath(answer.text, path);
    }
    const answer = await front.call(c.assert.tool, substitute(c.assert.args ?? {}, vars) as Record<string, unknown>);
    const argued = ARGUED[c.file];
    if (argued) {
      expect(MIGRATING).toContain(c.file);
      expect({ isError: answer.isError, text: answer.text }).toEqual({ isError: argued.isError, text: expect.stringMatching(argued.text) });
      return;
    }
    expect(firstFailure(c.assert.expect, answer.text, answer.isError)).toBeUndefined();
  }, 180_000);
});
