import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/paths.js';

/**
 * The bundle's loader (scripts/bundleLoader.mjs, dist/agent-lsp.mjs) keeps V8's young generation at
 * its initial size in fronts and in brokers (`--semi-space-growth-factor=1`, set at run time: a
 * broker is started as `node bin/agent-lsp daemon-broker`, with no command-line flags of ours), unless
 * node was given semi-space flags of its own. Seen from V8's heap statistics: after a burst of
 * short-lived objects the new space has not grown. Needs the bundle built (`pnpm build`).
 */
const run = promisify(execFile);
let home: string;

/** The new space's size (MiB) in a process that loads the bundle as `role`, then allocates ~3 million short-lived objects. */
async function newSpaceAfterChurn(role: string, nodeFlags: string[] = []): Promise<number> {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    process.argv = [process.execPath, 'agent-lsp', ${JSON.stringify(role)}];
    await import(${JSON.stringify(join(REPO_ROOT, 'dist', 'agent-lsp.mjs'))});
    let keep = [];
    for (let i = 0; i < 3e6; i++) { keep.push({ i }); if (keep.length > 1000) keep = []; }
    process.stdout.write(String(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576));
  `;
  const { stdout } = await run(process.execPath, [...nodeFlags, '--input-type=module', '-e', script], { env: { ...process.env, AGENT_LSP_HOME: home }, timeout: 60_000 });
  return Number(stdout);
}

beforeAll(() => {
  if (!statSync(join(REPO_ROOT, 'dist', 'agent-lsp.mjs'), { throwIfNoEntry: false })) throw new Error('dist/agent-lsp.mjs is missing: run `pnpm build` first');
  home = mkdtempSync(join(tmpdir(), 'agent-lsp-node-flags-'));
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe("the loader's V8 flags", () => {
  it('a front and a broker keep the young generation small', async () => {
    expect(await newSpaceAfterChurn('serve')).toBeLessThanOrEqual(2);
    expect(await newSpaceAfterChurn('daemon-broker')).toBeLessThanOrEqual(2);
  });

  it('a node given its own semi-space flags keeps them', async () => {
    const own = await newSpaceAfterChurn('daemon-broker', ['--semi-space-growth-factor=2']);
    expect(own).toBeGreaterThan(2);
  });
});
