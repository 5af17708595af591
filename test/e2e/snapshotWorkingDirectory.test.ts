import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO_ROOT } from '../helpers/paths.js';

/**
 * A start-up optimisation changes nothing but time (DESIGN.md): a front started from the start-up
 * snapshot sees the working directory, environment and argv of its own start, not those of the
 * process that built the blob. The blob is built by a front started in project A; every command
 * then runs in project B (which has the same relative names with other contents) once from the
 * blob and once plainly (AGENT_LSP_NO_SNAPSHOT=1), and the answers must be the same, and B's.
 */
let scratch: string;
let home: string;
let snapshots: string;
let projectA: string;
let projectB: string;

/** Each project: dj/ (a root), sub/ (a doctor root), my.json (a config), of its own. */
function makeProject(dir: string, tag: string): void {
  mkdirSync(join(dir, 'dj', `only-in-${tag}`), { recursive: true });
  mkdirSync(join(dir, 'sub'), { recursive: true });
  // B's sub has Python files, A's Go ones: doctor's file counts say which it walked.
  if (tag === 'b') writeFileSync(join(dir, 'sub', 'one.py'), 'x = 1\n');
  else writeFileSync(join(dir, 'sub', 'one.go'), 'package sub\n');
  const config = { servers: [{ id: `${tag}-server`, command: [`${tag}-server-not-installed`], extensions: [`.${tag}q`], languageIds: [`${tag}q`] }] };
  writeFileSync(join(dir, 'my.json'), JSON.stringify(config));
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home, AGENT_LSP_SNAPSHOT_DIR: snapshots, AGENT_LSP_STARTUP_TRACE: '1', ...extra };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  fromSnapshot: boolean;
}

/** bin/agent-lsp run as a program (as npm's bin link runs it) in `cwd`. */
function cli(args: string[], cwd: string, extra: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(BIN, args, { cwd, env: env(extra), timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr: stderr.replace(/^agent-lsp-mark .*\n/gm, ''), fromSnapshot: /^agent-lsp-mark started from the snapshot /m.test(stderr) });
    });
  });
}

/** A front started as a program in `cwd`: its workspace folders. */
async function folders(cwd: string, args: string[], extra: Record<string, string> = {}): Promise<{ folders: unknown; fromSnapshot: boolean }> {
  const transport = new StdioClientTransport({ command: BIN, args: ['serve', '--daemon', 'never', ...args], cwd, env: env(extra), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'snapshot-cwd-test', version: '0' });
  await client.connect(transport);
  try {
    const answer = (await client.callTool({ name: 'list_workspace_folders', arguments: {} })) as CallToolResult;
    return { folders: (answer.structuredContent as { folders?: unknown }).folders, fromSnapshot: /^agent-lsp-mark started from the snapshot /m.test(stderr) };
  } finally {
    await client.close();
  }
}

/** Runs `run` from the blob and plainly; both must agree, and the first must come from the blob. */
async function bothWays<T extends { fromSnapshot: boolean }>(run: (extra: Record<string, string>) => Promise<T>): Promise<{ snapshot: Omit<T, 'fromSnapshot'>; plain: Omit<T, 'fromSnapshot'> }> {
  const { fromSnapshot, ...snapshot } = await run({});
  expect(fromSnapshot).toBe(true);
  const { fromSnapshot: plainFromSnapshot, ...plain } = await run({ AGENT_LSP_NO_SNAPSHOT: '1' });
  expect(plainFromSnapshot).toBe(false);
  return { snapshot, plain };
}

describe('a front from a start-up snapshot built in another directory', () => {
  beforeAll(async () => {
    if (!statSync(join(REPO_ROOT, 'dist', 'agent-lsp.cjs'), { throwIfNoEntry: false })) throw new Error('dist/agent-lsp.cjs is missing: run `pnpm build` first');
    scratch = mkdtempSync(join(tmpdir(), 'agent-lsp-snapshot-cwd-'));
    home = join(scratch, 'home');
    snapshots = join(scratch, 'snapshots');
    projectA = join(scratch, 'a');
    projectB = join(scratch, 'b');
    makeProject(projectA, 'a');
    makeProject(projectB, 'b');
    // The blob is built by the first front (in A) after its first answer, in the background.
    await folders(projectA, ['--root', 'dj']);
    const id = join(snapshots, 'agent-lsp.blob.id');
    for (let i = 0; i < 1200 && !existsSync(id); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(join(snapshots, 'agent-lsp.blob.failed')), 'the snapshot build failed').toBe(false);
    expect(existsSync(id)).toBe(true);
  }, 180_000);

  afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
  });

  it('serve --root dj and AGENT_LSP_ROOT=dj are the dj of the directory it starts in', async () => {
    const flag = await bothWays((extra) => folders(projectB, ['--root', 'dj'], extra));
    expect(flag.snapshot).toEqual(flag.plain);
    expect(flag.snapshot.folders).toEqual([join(projectB, 'dj')]);
    const variable = await bothWays((extra) => folders(projectB, [], { AGENT_LSP_ROOT: 'dj', ...extra }));
    expect(variable.snapshot).toEqual(variable.plain);
    expect(variable.snapshot.folders).toEqual([join(projectB, 'dj')]);
  }, 60_000);

  it('doctor --root sub --config my.json walks and reads the ones of the directory it starts in', async () => {
    const { snapshot, plain } = await bothWays((extra) => cli(['doctor', '--root', 'sub', '--config', 'my.json', '--quick', '--json'], projectB, extra));
    expect(snapshot).toEqual(plain);
    const entries = JSON.parse(snapshot.stdout) as { id: string; files?: number }[];
    expect(entries.find((e) => e.id === 'bq')).toBeDefined();
    expect(entries.find((e) => e.id === 'pyright')?.files).toBe(1);
    expect(entries.find((e) => e.id === 'gopls')?.files).toBeUndefined();
    expect(snapshot.stderr).toContain(join(projectB, 'my.json'));
  }, 120_000);

  it('init --scope project writes the .mcp.json of the directory it starts in', async () => {
    const written = join(projectB, '.mcp.json');
    const run = async (extra: Record<string, string>) => {
      rmSync(written, { force: true });
      const r = await cli(['init', '--client', 'claude', '--scope', 'project'], projectB, extra);
      return { ...r, file: existsSync(written) ? readFileSync(written, 'utf8') : undefined };
    };
    const { snapshot, plain } = await bothWays(run);
    expect(snapshot).toEqual(plain);
    expect(snapshot.file).toContain('agent-lsp');
    expect(existsSync(join(projectA, '.mcp.json'))).toBe(false);
  }, 60_000);
});

/** Builds a blob of a stand-in bundle whose top-level code is `topLevel`; the builder's stderr, or '' when it built. */
function buildStandIn(topLevel: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-lsp-snapshot-guard-'));
  try {
    const bundle = join(dir, 'bundle.cjs');
    // The bundle's shape (scripts/bundle.mjs): one function expression; what the builder's warm-up calls.
    const fake = `(function (exports, require, module) { ${topLevel};
      exports.loadServeModules = async () => [{ ServerRegistry: class {}, createLogger: () => ({}) }, { createAgentLspServer: () => ({ close: async () => undefined }) }];
      exports.main = async () => undefined; })`;
    writeFileSync(bundle, fake);
    const built = spawnSync(process.execPath, ['--snapshot-blob', join(dir, 'blob'), '--build-snapshot', join(REPO_ROOT, 'dist', 'agent-lsp-snapshot.cjs')], {
      env: { PATH: process.env['PATH'] ?? '', AGENT_LSP_SNAPSHOT_BUNDLE: bundle },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return built.status === 0 ? '' : built.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the snapshot builder refuses a bundle that keeps process state as it loads', () => {
  it('builds a bundle that reads nothing; refuses one that keeps an environment variable, the working directory, the home directory or a file', () => {
    expect(buildStandIn('const kept = 1')).toBe('');
    expect(buildStandIn('const kept = process.env.HOME')).toMatch(/read process state while it loaded.*process\.env\.HOME/);
    expect(buildStandIn('const kept = process.cwd()')).toMatch(/ENOENT/);
    expect(buildStandIn('const kept = require("node:os").homedir()')).toMatch(/os\.homedir/);
    expect(buildStandIn('const kept = require("node:fs").readFileSync("/etc/hostname", "utf8")')).toMatch(/fs\.readFileSync\(\/etc\/hostname\)/);
  }, 60_000);
});
