import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findExecutable } from '@agent-lsp/lsp';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES } from '../helpers/paths.js';
import { envWithHome, temporaryHome } from '../helpers/testHome.js';

const run = promisify(execFile);

interface Entry {
  server: string;
  id: string;
  found: boolean;
  files?: number;
  source?: string;
  version?: string;
  initialize_ms?: number;
  tools?: string[];
  missing_tools?: string[];
  error?: string;
  install?: string;
}

/** Runs doctor; resolves with its exit code whatever it is. */
async function doctor(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'doctor', ...args], { env, timeout: 240_000, maxBuffer: 4 << 20 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('agent-lsp doctor', () => {
  const home = temporaryHome();
  const scratch = mkdtempSync(join(tmpdir(), 'agent-lsp-doctor-test-'));
  afterAll(() => {
    home.remove();
    rmSync(scratch, { recursive: true, force: true });
  });

  // A PATH of node alone: the bundled servers only (pyright), not every server on this machine.
  const nodeOnly = join(scratch, 'bin');
  mkdirSync(nodeOnly);
  symlinkSync(process.execPath, join(nodeOnly, 'node'));
  // ... and the tools the project's node_modules/.bin shims run: doctor then finds the bundled
  // servers and the repository's own (bash-language-server above the fixture), not every server
  // installed on this machine (the language matrix starts each of those).
  const projectTools = join(scratch, 'project-bin');
  mkdirSync(projectTools);
  symlinkSync(process.execPath, join(projectTools, 'node'));
  for (const tool of ['dirname', 'sed', 'uname']) {
    const found = findExecutable(tool);
    if (found) symlinkSync(found, join(projectTools, tool));
  }

  it('starts each server found, says its version, initialize time and tools, and what the workspace needs', async () => {
    const root = join(FIXTURES, 'bash-basic');
    const env = envWithHome(home.home, { PATH: projectTools });
    // The JSON and the text form are two runs of their own: at the same time.
    const [{ code, stdout }, text] = await Promise.all([doctor(['--json', '--root', root], env), doctor(['--root', root], env)]);
    expect(code).toBe(0);
    const entries = JSON.parse(stdout) as Entry[];
    const bash = entries.find((e) => e.id === 'bash-language-server');
    // Found in the repository's node_modules/.bin above the fixture, started there, and bash-language-server offers definitions but no rename-free formatting.
    expect(bash).toMatchObject({ found: true, source: 'project', files: 3, version: expect.stringMatching(/\d/), initialize_ms: expect.any(Number) });
    expect(bash?.tools).toEqual(expect.arrayContaining(['go_to_definition', 'find_references', 'inspect_symbol', 'list_symbols']));
    const pyright = entries.find((e) => e.id === 'pyright');
    expect(pyright).toMatchObject({ found: true, source: 'bundled', initialize_ms: expect.any(Number), missing_tools: expect.arrayContaining(['format_document']) });
    expect(pyright?.files).toBeUndefined();
    for (const e of entries.filter((x) => !x.found)) expect(e.install).toMatch(/install/i);
    for (const e of entries.filter((x) => x.found)) expect(e.error, e.server).toBeUndefined();

    expect(text.stdout).toMatch(/✓ bash-language-server \(shellscript, 3 files here\)\n\s+version: .*\d[\s\S]*?initialize: \d+ ms\n\s+tools: +\d+ of 14/);
  });

  it('exits 1 when a configured server crashes at initialize or is missing, and still checks the others', async () => {
    const config = join(scratch, 'servers.json');
    writeFileSync(
      config,
      // It says its version (node's) but exits when the initialize request arrives.
      JSON.stringify({ servers: [{ language_id: 'crashy', extensions: ['.crashy'], command: [process.execPath, '-e', 'process.stdin.once("data", () => process.exit(3))'] }, { extensions: ['ghost'], command: ['definitely-not-an-lsp-binary'] }] }),
    );
    const { code, stdout, stderr } = await doctor(['--json', '--config', config, '--root', scratch], envWithHome(home.home, { PATH: nodeOnly }));
    expect(code).toBe(1);
    const entries = JSON.parse(stdout) as Entry[];
    expect(entries.find((e) => e.id === 'crashy')).toMatchObject({ found: true, error: expect.stringMatching(/initialize/) });
    expect(entries.find((e) => e.id === 'ghost')).toMatchObject({ found: false, install: expect.stringContaining('definitely-not-an-lsp-binary') });
    expect(entries.find((e) => e.id === 'pyright')).toMatchObject({ found: true, tools: expect.arrayContaining(['go_to_definition']) });
    expect(stderr).toContain('failed to start');
    expect(stderr).toContain('is configured but not found');
  });
});
