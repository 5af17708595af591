import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findInstalledExecutable, readInstallManifest, type InstallRoute } from '@agent-lsp/lsp';
import type { PlanStep } from './installPlan.js';
import { cleanStaleStaging, InstallFailed, stagedInstall, stagingRoot } from './stagedInstall.js';

/** AGENT_LSP_HOME, and the servers home in it. */
let agentHome: string;
let home: string;
beforeEach(() => {
  agentHome = mkdtempSync(join(tmpdir(), 'agent-lsp-staged-'));
  home = join(agentHome, 'servers');
});
afterEach(() => rmSync(agentHome, { recursive: true, force: true }));

const route = (version: string): Extract<InstallRoute, { kind: 'npm' | 'pip' | 'go' | 'cargo' }> => ({ kind: 'go', packages: [{ name: 'example.com/fake-ls', version }], binaries: ['fake-ls'] });
const step = (version = 'v1.0.0'): Extract<PlanStep, { action: 'install' }> => ({ action: 'install', targets: [], route: route(version), unit: 'go-fake-ls', unitDir: join(home, 'go-fake-ls') });

/** Commands standing in for `go install`: a shell script writing the executable (or not), then exiting with `code`. */
const writes = (binary: boolean, code = 0, text = 'v1') => (dir: string) => [
  { argv: ['sh', '-c', `mkdir -p "${dir}/bin" && ${binary ? `printf '#!/bin/sh\\necho ${text}\\n' > "${dir}/bin/fake-ls" && chmod +x "${dir}/bin/fake-ls" && ` : ''}echo building; echo the error >&2; exit ${code}`] },
];

const leftovers = () => (existsSync(stagingRoot(home)) ? readdirSync(stagingRoot(home)) : []);

describe('an install staged then renamed into place', () => {
  it('puts a complete install, its manifest and a link in bin/ in place', async () => {
    await stagedInstall(step(), home, writes(true));
    expect(readInstallManifest(join(home, 'go-fake-ls'))).toMatchObject({ kind: 'go', packages: [{ name: 'example.com/fake-ls', version: 'v1.0.0' }], binaries: { 'fake-ls': 'bin/fake-ls' } });
    expect(findInstalledExecutable('fake-ls', { AGENT_LSP_HOME: agentHome })).toMatchObject({ path: join(home, 'bin', 'fake-ls'), unitDir: join(home, 'go-fake-ls') });
    expect(readFileSync(join(home, 'bin', 'fake-ls'), 'utf8')).toContain('echo v1');
    expect(leftovers()).toEqual([]);
  });

  it('leaves nothing when a command fails midway, and names what to run by hand', async () => {
    const failure = stagedInstall(step(), home, writes(true, 3));
    await expect(failure).rejects.toBeInstanceOf(InstallFailed);
    await expect(failure).rejects.toMatchObject({ message: expect.stringMatching(/failed \(exit 3\)/), output: expect.stringContaining('the error'), manual: 'go install example.com/fake-ls@v1.0.0 (then put $(go env GOPATH)/bin on PATH)' });
    expect(existsSync(join(home, 'go-fake-ls'))).toBe(false);
    expect(existsSync(join(home, 'bin', 'fake-ls'))).toBe(false);
    expect(findInstalledExecutable('fake-ls', { AGENT_LSP_HOME: agentHome })).toBeUndefined();
    expect(leftovers()).toEqual([]);
  });

  it('leaves nothing when the package did not provide the executable it promises', async () => {
    await expect(stagedInstall(step(), home, writes(false))).rejects.toThrow(/provides no fake-ls/);
    expect(existsSync(join(home, 'go-fake-ls'))).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('replaces an install of other versions whole, and keeps the old one when the new one fails', async () => {
    await stagedInstall(step('v1.0.0'), home, writes(true, 0, 'v1'));
    await expect(stagedInstall(step('v2.0.0'), home, writes(true, 1, 'v2'))).rejects.toBeInstanceOf(InstallFailed);
    expect(readInstallManifest(join(home, 'go-fake-ls'))?.packages[0]?.version).toBe('v1.0.0');
    await stagedInstall(step('v2.0.0'), home, writes(true, 0, 'v2'));
    expect(readInstallManifest(join(home, 'go-fake-ls'))?.packages[0]?.version).toBe('v2.0.0');
    expect(readFileSync(join(home, 'bin', 'fake-ls'), 'utf8')).toContain('echo v2');
    expect(leftovers()).toEqual([]);
  });

  it('clears staging directories of installs whose process is gone, not of live ones', () => {
    mkdirSync(join(stagingRoot(home), 'go-fake-ls.999999999.abc123'), { recursive: true });
    mkdirSync(join(stagingRoot(home), `go-fake-ls.${process.pid}.def456`), { recursive: true });
    cleanStaleStaging(home);
    expect(leftovers()).toEqual([`go-fake-ls.${process.pid}.def456`]);
  });
});
