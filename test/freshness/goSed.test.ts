// Direct mode (gopls never runs behind a broker by default): a file agent-lsp never opened, changed
// by `sed -i` in another process, reaches gopls through the front's own watcher — the reference
// answer grows by the call sed added. (go.test.ts covers definitions and diagnostics.)
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { eventually, GO } from './scenarios.js';

const installed = onPath('gopls') && onPath('sed');
if (!installed) console.warn('gopls or sed is not installed: the sed freshness test did not run (apt-get install gopls)');
const title = installed ? 'gopls, direct mode, sed' : 'gopls, direct mode, sed (NOT INSTALLED — did not run)';
/** gopls re-loads a package after a watched-file event at its own pace. */
const GOPLS_SETTLES_MS = 60_000;

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

async function referenceFiles(front: AgentLspClient): Promise<string[]> {
  const data = ok(await front.call('find_references', { file_path: GO.target, position_pattern: 'func @@Distance(' }));
  return (data['locations'] as { file: string; line: number }[]).map((l) => `${l.file}:${l.line}`).sort();
}

describe.skipIf(!installed)(title, () => {
  it('a call added by sed to a file never opened shows up in find_references', async () => {
    const root = join(scope.root(GO.fixture), GO.fixture);
    const front = await startAgentLsp({ env: { AGENT_LSP_HOME: scope.home() } });
    scope.fronts.push(front);
    ok(await front.call('start_lsp', { root_dir: root, language_id: 'go' }));
    const before = await referenceFiles(front);
    expect(before).toEqual(['geometry/geometry.go:12', 'main.go:12', 'main.go:13', 'report.go:9']);

    // Another process edits report.go in place: one more call of Distance, on a new line.
    execFileSync('sed', ['-i', 's|^\treturn total$|\ttotal += geometry.Distance(points[0], points[0])\\n\treturn total|', 'report.go'], { cwd: root, timeout: 10_000 });
    const after = await eventually(() => referenceFiles(front), (r) => r.length > before.length, GOPLS_SETTLES_MS);
    expect(after).toEqual(['geometry/geometry.go:12', 'main.go:12', 'main.go:13', 'report.go:11', 'report.go:9']);
  });
});
