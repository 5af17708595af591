// An outside change to ANOTHER file of an open file's package (sed, rm): gopls has published the
// open file's diagnostics for its (unchanged) version before the change. The next get_diagnostics
// must describe the package as it is now — the new error, or an answer that says it is not
// settled — never the old diagnostics as settled. Direct mode and through a broker.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { eventually } from './scenarios.js';

const installed = onPath('gopls') && onPath('sed');
if (!installed) console.warn('gopls or sed is not installed: the package freshness test did not run (apt-get install gopls)');
const title = installed ? 'gopls, another file of the package changed outside' : 'gopls, another file of the package changed outside (NOT INSTALLED — did not run)';
/** gopls re-checks a package after a watched-file event at its own pace. */
const GOPLS_SETTLES_MS = 60_000;
/** Settle modes that do not claim the answer describes the workspace as it is. */
const UNCONFIRMED = ['quiet', 'timeout'];

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

interface Answer {
  messages: string[];
  settledBy: string | undefined;
}

async function diagnosticsOfMain(front: AgentLspClient): Promise<Answer> {
  const data = ok(await front.call('get_diagnostics', { file_path: 'main.go' }));
  const files = data['files'] as { settled_by: string }[];
  return { messages: (data['diagnostics'] as { message: string }[]).map((d) => d.message), settledBy: files[0]?.settled_by };
}

/** The answer at once: the new error, or (only) an answer that does not claim to be settled. */
async function neverStaleAsSettled(front: AgentLspClient, missing: RegExp): Promise<void> {
  const first = await diagnosticsOfMain(front);
  if (!first.messages.some((m) => missing.test(m))) expect(UNCONFIRMED, `old diagnostics ${JSON.stringify(first.messages)} answered as settled`).toContain(first.settledBy);
  const later = await eventually(() => diagnosticsOfMain(front), (a) => a.messages.some((m) => missing.test(m)), GOPLS_SETTLES_MS);
  expect(later.messages).toContainEqual(expect.stringMatching(missing));
}

const MODES = [
  { mode: 'direct mode', args: ['--daemon', 'never'] },
  { mode: 'through a broker', args: ['--daemon', 'always'] },
];

describe.skipIf(!installed)(title, () => {
  for (const { mode, args } of MODES) {
    it(`${mode}: sed renames report in report.go, then rm report.go: main.go's diagnostics are never the old ones as settled`, async () => {
      const root = join(scope.root('go-basic'), 'go-basic');
      const home = scope.home();
      const front = await startAgentLsp({ args, env: { AGENT_LSP_HOME: home } });
      scope.fronts.push(front);
      ok(await front.call('start_lsp', { root_dir: root, language_id: 'go' }));
      // main.go is open and settled clean: gopls published its (versioned) diagnostics.
      expect((await diagnosticsOfMain(front)).messages).toEqual([]);

      execFileSync('sed', ['-i', 's/^func report(/func summary(/', 'report.go'], { cwd: root, timeout: 10_000 });
      await neverStaleAsSettled(front, /undefined: report/);

      // Put back, settled clean again; then the file goes altogether.
      execFileSync('sed', ['-i', 's/^func summary(/func report(/', 'report.go'], { cwd: root, timeout: 10_000 });
      const clean = await eventually(() => diagnosticsOfMain(front), (a) => a.messages.length === 0 && !UNCONFIRMED.includes(a.settledBy ?? ''), GOPLS_SETTLES_MS);
      expect(clean.messages).toEqual([]);
      rmSync(join(root, 'report.go'));
      await neverStaleAsSettled(front, /undefined: report/);
    });
  }
});
