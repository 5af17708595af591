import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { atomicFileWriter, workspaceStateDir, type FileWriter } from '@agent-lsp/session';
import { BIN, FIXTURES } from '../helpers/paths.js';
import { startInProcessAgent, type InProcessAgent } from './inProcessAgent.js';
import { scratchWorkspace } from './workspaceCopy.js';

const run = promisify(execFile);

/** The real writer, except that while armed every write from the Nth on fails (restores included). */
class FailingFromWriter implements FileWriter {
  private count = 0;
  private failFrom = 0;
  arm(failFrom: number): void {
    this.count = 0;
    this.failFrom = failFrom;
  }
  disarm(): void {
    this.failFrom = 0;
  }
  async write(path: string, data: Uint8Array, options?: Parameters<FileWriter['write']>[2]): Promise<void> {
    if (this.failFrom > 0 && ++this.count >= this.failFrom) throw new Error(`injected failure writing ${path}`);
    await atomicFileWriter.write(path, data, options);
  }
  async remove(path: string, options?: Parameters<FileWriter['remove']>[1]): Promise<void> {
    await atomicFileWriter.remove(path, options);
  }
}

/** A restore that fails leaves a record that blocks writes; the error says what to do, and `agent-lsp recover` does it. */
describe('a failed restore and agent-lsp recover', () => {
  const ws = scratchWorkspace(join(FIXTURES, 'python-basic'));
  const agentHome = join(ws.dir, 'agent-home');
  const stateHome = join(agentHome, 'state');
  const geometry = join(ws.root, 'app', 'geometry.py');
  const routes = join(ws.root, 'app', 'routes.py');
  const writer = new FailingFromWriter();
  let agent: InProcessAgent;
  let intentPath: string;
  let geometryBefore: string;

  const editBoth = () =>
    agent.call('apply_edit', {
      workspace_edit: {
        changes: {
          [pathToUri(geometry)]: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '# one\n' }],
          [pathToUri(routes)]: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: '# two\n' }],
        },
      },
    });
  const recover = async (...extra: string[]) => {
    try {
      const r = await run(process.execPath, [BIN, 'recover', '--root', ws.root, ...extra], { env: { ...process.env, AGENT_LSP_HOME: agentHome } });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (e) {
      const failed = e as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  /** Makes the write fail on routes.py and its rollback fail on geometry.py. */
  const failARestore = async () => {
    writer.arm(2);
    const answer = await editBoth();
    expect(answer.isError, answer.text).toBe(true);
    return answer.text;
  };

  beforeAll(async () => {
    geometryBefore = readFileSync(geometry, 'utf8');
    agent = await startInProcessAgent({ home: stateHome, writer });
    const started = await agent.call('start_lsp', { root_dir: ws.root, language_id: 'python' });
    expect(started.isError, started.text).toBe(false);
    intentPath = join(workspaceStateDir(stateHome, ws.root), 'intent.json');
  });
  afterAll(async () => {
    await agent.close();
    ws.dispose();
  });

  it('names the file, the intent record and the command, on the failed call and on every later write', async () => {
    const text = await failARestore();
    expect(text).toContain(`Could not restore 1 file(s): ${geometry} (injected failure writing ${geometry})`);
    expect(text).toContain(intentPath);
    expect(text).toContain(`agent-lsp recover --root ${ws.root}`);
    expect(existsSync(intentPath)).toBe(true);

    const broken = join(ws.root, 'app', 'broken.py');
    const brokenBefore = readFileSync(broken, 'utf8');
    const later = await agent.call('apply_edit', { file_path: 'app/broken.py', old_text: 'import', new_text: 'import' + ' ' });
    expect(later.isError).toBe(true);
    expect(later.text).toContain(`Could not restore 1 file(s): ${geometry}`);
    expect(later.text).toContain(`agent-lsp recover --root ${ws.root}`);
    expect(readFileSync(broken, 'utf8')).toBe(brokenBefore);
  });

  it('agent-lsp recover restores the file and clears the record, and writes work again', async () => {
    writer.disarm();
    const r = await recover();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`restored ${geometry}`);
    expect(readFileSync(geometry, 'utf8')).toBe(geometryBefore);
    expect(existsSync(intentPath)).toBe(false);
    expect((await recover()).stdout).toMatch(/Nothing to recover/);
    const answer = await editBoth();
    expect(answer.isError, answer.text).toBe(false);
    expect(readFileSync(geometry, 'utf8')).toBe(`# one\n${geometryBefore}`);
    expect((await agent.call('undo_last', {})).isError).toBe(false);
  });

  it('when the file still cannot be restored, recover says so, and --force saves its old content and clears the record', async () => {
    await failARestore();
    writer.disarm();
    // A directory now stands where the file was: no writer can put the file back.
    rmSync(geometry);
    mkdirSync(join(geometry, 'inside'), { recursive: true });
    const refused = await recover();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Could not restore 1 file(s): ${geometry}`);
    expect(refused.stderr).toContain('--force');
    expect(existsSync(intentPath)).toBe(true);

    const forced = await recover('--force');
    expect(forced.code, forced.stderr).toBe(0);
    const saved = /Not restored: .*geometry\.py; its old content is saved in (\S+)\.\n/.exec(forced.stdout)?.[1];
    expect(saved, forced.stdout).toBeDefined();
    expect(readFileSync(saved as string, 'utf8')).toBe(geometryBefore);
    expect(existsSync(intentPath)).toBe(false);

    rmSync(geometry, { recursive: true });
    writeFileSync(geometry, geometryBefore);
    const answer = await agent.call('apply_edit', { file_path: 'app/routes.py', old_text: 'total = 0.0', new_text: 'total = 0.25' });
    expect(answer.isError, answer.text).toBe(false);
    expect(readdirSync(join(ws.root, 'app'))).toContain('geometry.py');
  });
});
