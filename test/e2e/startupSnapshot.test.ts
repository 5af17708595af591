import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, FIXTURES, REPO_ROOT } from '../helpers/paths.js';

/**
 * bin/agent-lsp run as a program (as npm's bin link runs it) is a sh script first: it starts the
 * front from the start-up snapshot when one was built for this bundle, this install and this node
 * binary, else runs node on itself, and that front builds the snapshot in the background after its
 * first answer (scripts/snapshotEntry.cjs, scripts/snapshotBuild.mjs). The blob goes to
 * AGENT_LSP_SNAPSHOT_DIR here, so the checkout's dist/ is left alone. Needs the bundle built
 * (`pnpm build`; `pnpm test` bundles first).
 */
let scratch: string;
let home: string;
let snapshots: string;
let workspace: string;

interface FrontRun {
  references: number;
  tools: number;
  fromSnapshot: boolean;
  stderr: string;
  /** The options node was started with (its command line up to the script), --snapshot-blob and its blob left out. */
  nodeFlags: string[];
}

/** Node's own options in a process's command line: what comes before the script (bin/agent-lsp). */
function nodeFlagsOf(pid: number): string[] {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  const flags = argv.slice(1, argv.indexOf(BIN));
  const blob = flags.indexOf('--snapshot-blob');
  if (blob >= 0) flags.splice(blob, 2);
  return flags;
}

/** A front started as a program: lists tools, answers start_lsp and find_references, says whether it came from the snapshot. */
async function front(env: Record<string, string> = {}): Promise<FrontRun> {
  const transport = new StdioClientTransport({
    command: BIN,
    args: ['serve', '--daemon', 'never'],
    env: { ...(process.env as Record<string, string>), AGENT_LSP_HOME: home, AGENT_LSP_SNAPSHOT_DIR: snapshots, AGENT_LSP_STARTUP_TRACE: '1', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'startup-snapshot-test', version: '0' });
  await client.connect(transport);
  try {
    // sh has exec'd node by now (node answered initialize), in the same process.
    const nodeFlags = nodeFlagsOf(transport.pid!);
    const tools = (await client.listTools()).tools.length;
    const started = (await client.callTool({ name: 'start_lsp', arguments: { root_dir: workspace } }, undefined, { timeout: 300_000 })) as CallToolResult;
    expect(started.isError).toBeFalsy();
    const refs = (await client.callTool({ name: 'find_references', arguments: { file_path: 'app/geometry.py', position_pattern: 'def @@distance(' } }, undefined, { timeout: 300_000 })) as CallToolResult;
    expect(refs.isError).toBeFalsy();
    return { references: (refs.structuredContent as { total: number }).total, tools, fromSnapshot: /^agent-lsp-mark started from the snapshot /m.test(stderr), stderr, nodeFlags };
  } finally {
    await client.close();
  }
}

const blob = () => join(snapshots, 'agent-lsp.blob');
const blobId = () => join(snapshots, 'agent-lsp.blob.id');

/** The blob's id once the background build has put it there (it takes a few seconds of CPU). */
async function builtId(dir = snapshots): Promise<string> {
  const id = join(dir, 'agent-lsp.blob.id');
  for (let i = 0; i < 1200 && !existsSync(id); i++) await new Promise((r) => setTimeout(r, 100));
  return readFileSync(id, 'utf8').trim();
}

/** What bin/agent-lsp gives a front's node unless AGENT_LSP_NODE_FLAGS or NODE_OPTIONS say otherwise. */
const FRONT_FLAGS = ['--v8-pool-size=1'];

beforeAll(() => {
  const bundle = statSync(join(REPO_ROOT, 'dist', 'agent-lsp.cjs'), { throwIfNoEntry: false });
  if (!bundle) throw new Error('dist/agent-lsp.cjs is missing: run `pnpm build` first');
  scratch = mkdtempSync(join(tmpdir(), 'agent-lsp-snapshot-'));
  home = join(scratch, 'home');
  snapshots = join(scratch, 'snapshots');
  workspace = join(scratch, 'python-basic');
  cpSync(join(FIXTURES, 'python-basic'), workspace, { recursive: true });
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('the start-up snapshot', () => {
  it('a front without a blob answers from the bundle and builds one; the next front starts from it and answers the same', async () => {
    const first = await front();
    expect(first.fromSnapshot).toBe(false);
    expect(first.references).toBe(6);
    const id = await builtId();
    // The key: the bundle's build id, this bin's real path, and ls -iLln of the node binary.
    expect(id.startsWith(`${readFileSync(join(REPO_ROOT, 'dist', 'build-id'), 'utf8').trim()} ${BIN} `)).toBe(true);
    expect(statSync(blob()).size).toBeGreaterThan(1_000_000);

    // The fronts' node flags: given to node, part of the key, and the blob built with them.
    expect(first.nodeFlags).toEqual(FRONT_FLAGS);
    expect(id.endsWith(` ${FRONT_FLAGS.join(' ')}`)).toBe(true);

    const second = await front();
    expect(second.fromSnapshot).toBe(true);
    expect(second.nodeFlags).toEqual(FRONT_FLAGS);
    expect(second.tools).toBe(first.tools);
    expect(second.references).toBe(6);
    // Marks are read at run time, not frozen at build time (the builder ran without AGENT_LSP_STARTUP_TRACE).
    expect(second.stderr).toMatch(/^agent-lsp-mark stdio listening /m);
  });

  it('the entry `agent-lsp init` writes (bin/agent-lsp run as a program, told its node in AGENT_LSP_NODE) starts from a snapshot with no node on PATH', async () => {
    // PATH holds what the sh part runs besides node (readlink, ls) and nothing else.
    const tools = join(scratch, 'path-without-node');
    mkdirSync(tools);
    for (const tool of ['readlink', 'ls']) symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(tools, tool));
    const pinned = { AGENT_LSP_NODE: process.execPath, PATH: tools, AGENT_LSP_SNAPSHOT_DIR: join(scratch, 'snapshots-pinned-node') };
    const first = await front(pinned);
    expect(first.references).toBe(6);
    expect(first.nodeFlags).toEqual(FRONT_FLAGS);
    expect(await builtId(pinned.AGENT_LSP_SNAPSHOT_DIR)).toContain(process.execPath);
    const second = await front(pinned);
    expect(second.fromSnapshot).toBe(true);
    expect(second.references).toBe(6);
  });

  it('AGENT_LSP_NO_SNAPSHOT=1 and NODE_OPTIONS leave the blob unused; NODE_OPTIONS drops the fronts\' node flags', async () => {
    expect(existsSync(blobId())).toBe(true);
    const noSnapshot = await front({ AGENT_LSP_NO_SNAPSHOT: '1' });
    expect(noSnapshot.fromSnapshot).toBe(false);
    expect(noSnapshot.nodeFlags).toEqual(FRONT_FLAGS);
    const nodeOptions = await front({ NODE_OPTIONS: '--max-old-space-size=2048' });
    expect(nodeOptions.fromSnapshot).toBe(false);
    expect(nodeOptions.nodeFlags).toEqual([]);
  });

  it('AGENT_LSP_NODE_FLAGS replaces the fronts\' node flags: a blob is built under them and used with them only; empty gives none', async () => {
    // A V8 flag changes what V8 accepts as a blob (a front from a blob of other V8 flags exits 14):
    // the build must run under the front's flags, and the key must tell the two blobs apart.
    const own = join(scratch, 'snapshots-own-flags');
    const flags = { AGENT_LSP_NODE_FLAGS: '--max-semi-space-size=2 --v8-pool-size=2', AGENT_LSP_SNAPSHOT_DIR: own };
    const first = await front(flags);
    expect(first.nodeFlags).toEqual(['--max-semi-space-size=2', '--v8-pool-size=2']);
    expect(first.fromSnapshot).toBe(false);
    expect(await builtId(own)).toMatch(/ --max-semi-space-size=2 --v8-pool-size=2$/);
    expect(existsSync(join(own, 'agent-lsp.blob.failed'))).toBe(false);
    const second = await front(flags);
    expect(second.fromSnapshot).toBe(true);
    expect(second.references).toBe(6);
    // That blob is not the default flags' one, and the default key's blob is not these flags' one.
    expect((await front({ AGENT_LSP_SNAPSHOT_DIR: own })).fromSnapshot).toBe(false);
    // (In this test's own snapshot dir: the blob it builds in the background must not replace the default one the next test reads.)
    const none = await front({ AGENT_LSP_NODE_FLAGS: '', AGENT_LSP_SNAPSHOT_DIR: own });
    expect(none.nodeFlags).toEqual([]);
    expect(none.references).toBe(6);
  });

  it('a blob whose id is not this key (another node binary, another build) is not used, and a new one replaces it', async () => {
    const id = readFileSync(blobId(), 'utf8').trim();
    const otherNode = id.replace(/ \d+ /, ' 1 ');
    expect(otherNode).not.toBe(id);
    writeFileSync(blobId(), `${otherNode}\n`);
    const run = await front();
    expect(run.fromSnapshot).toBe(false);
    expect(run.references).toBe(6);
    const current = () => (existsSync(blobId()) ? readFileSync(blobId(), 'utf8').trim() : undefined);
    for (let i = 0; i < 1200 && current() !== id; i++) await new Promise((r) => setTimeout(r, 100));
    expect(current()).toBe(id);
    expect((await front()).fromSnapshot).toBe(true);
  });
});
