import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { RawServer } from '../field/rawServer.js';
import { BrokerTestScope, daemonsByLanguage } from '../helpers/brokers.js';
import { onPath } from '../helpers/onPath.js';
import { BIN } from '../helpers/paths.js';
import { isAlive } from '../helpers/processes.js';

const SCRIPT = join(import.meta.dirname, 'neovim', 'client.lua');

/** The Neovim 0.7-0.9 configuration of docs/editors.md, its command made this checkout's bin/agent-lsp. */
function documentedConfig(): string {
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'editors.md'), 'utf8');
  const block = /## Neovim 0\.7 to 0\.9[\s\S]*?```lua\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/editors.md has no Lua block under "## Neovim 0.7 to 0.9"');
  expect(block).toContain("'/path/to/agent-lsp/bin/agent-lsp'");
  return block.replaceAll("'/path/to/agent-lsp/bin/agent-lsp'", JSON.stringify(BIN));
}

interface NeovimResults {
  version: string;
  error?: string;
  root?: string;
  hover_provider?: boolean;
  hover?: string;
  definition?: { file: string; line: number }[];
  references?: { file: string; line: number }[];
  diagnostics?: { line: number; message: string }[];
}

/** Runs the Lua client in a headless Neovim (`--clean`: no user config) and reads what it wrote. */
async function runNeovim(home: string, root: string): Promise<NeovimResults> {
  const out = join(root, '..', 'neovim-results.json');
  const config = join(root, '..', 'init.lua');
  writeFileSync(config, documentedConfig());
  const child = spawn('nvim', ['--headless', '--clean', '-n', '-i', 'NONE', '-c', `luafile ${SCRIPT}`], {
    cwd: root,
    // bin/agent-lsp run as a program (its sh part), as docs/editors.md configures it.
    env: { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home, CONFIG: config, ROOT: root, OUT: out },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => child.pid !== undefined && isAlive(child.pid) && child.kill('SIGKILL'), 180_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(killer);
  if (!existsSync(out)) throw new Error(`nvim exited ${code} without results: ${stderr}`);
  return JSON.parse(readFileSync(out, 'utf8')) as NeovimResults;
}

const ok = onPath('nvim');
describe(ok ? 'Neovim, headless, as an agent-lsp lsp client' : 'Neovim as an agent-lsp lsp client: not run (nvim is not on PATH; .ci/run installs Debian\'s)', () => {
  const scope = new BrokerTestScope();
  const raws: RawServer[] = [];
  afterEach(async () => {
    for (const r of raws.splice(0)) await r.stop();
    await scope.cleanup();
  });

  it('hover, definition and references equal pyright\'s own; diagnostics are pushed; it is the agents\' python broker it reached', async () => {
    expect(ok, 'nvim on PATH').toBe(true);
    const home = scope.home();
    const root = join(scope.root('python-basic'), 'python-basic');
    const results = await runNeovim(home, root);
    expect(results.error, results.error).toBeUndefined();
    expect(results.hover_provider).toBe(true);
    // The documented configuration found the root by its marker (pyproject.toml).
    expect(results.root).toBe(root);

    // The ground truth: pyright started on the same root and asked directly.
    const raw = await RawServer.start('pyright', root);
    raws.push(raw);
    await raw.open('app/routes.py', 'python');
    await raw.idle();
    const routes = readFileSync(join(root, 'app', 'routes.py'), 'utf8').split('\n');
    const at = { textDocument: { uri: pathToUri(join(root, 'app', 'routes.py')) }, position: { line: 6, character: (routes[6] as string).indexOf('distance') } };
    const hover = await raw.request<{ contents: { value: string } }>('textDocument/hover', at);
    expect(results.hover).toBe(hover.contents.value);
    const where = (l: { uri: string; range: { start: { line: number } } }) => ({ file: new URL(l.uri).pathname, line: l.range.start.line });
    const definition = await raw.request<{ uri: string; range: { start: { line: number } } }[]>('textDocument/definition', at);
    expect(results.definition).toEqual(definition.map(where));
    const references = await raw.request<{ uri: string; range: { start: { line: number } } }[]>('textDocument/references', { ...at, context: { includeDeclaration: true } });
    const sorted = (l: { file: string; line: number }[]) => [...l].sort((a, b) => `${a.file}:${a.line}`.localeCompare(`${b.file}:${b.line}`));
    expect(sorted(results.references ?? [])).toEqual(sorted(references.map(where)));
    expect(results.references?.length).toBeGreaterThan(2);

    // broken.py's two errors: a str assigned to `count: int` (its line 3), a float returned as str (line 7).
    expect(results.diagnostics?.map((d) => d.line).sort()).toEqual([2, 6]);
    expect(results.diagnostics?.find((d) => d.line === 2)?.message).toMatch(/three/);
    // Neovim reached the broker agents use for that root (the broker lives on after it left).
    expect([...daemonsByLanguage(home).keys()]).toEqual(['python']);
  }, 300_000);
});
