import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, ServerRegistry } from '@agent-lsp/lsp';
import { Workspace } from '@agent-lsp/workspace';
import { AgentLedger } from './agentLedger.js';
import { readAuditTail } from './auditLog.js';
import { sequentialIds, steppingClock } from './determinism.js';
import { atomicFileWriter, type FileWriter } from './fileWriter.js';

const logger = createLogger({ level: 'error', sink: () => undefined });
const T0 = new Date('2026-01-02T03:04:05.000Z');

/** The real writer, except that the write numbered `failAt` (1-based, counted over the session) throws. */
function failingWriter(failAt: number): FileWriter & { writes: string[] } {
  let n = 0;
  const writes: string[] = [];
  return {
    writes,
    async write(path, data, options) {
      if (++n === failAt) throw new Error(`disk full (injected) writing ${path}`);
      writes.push(path);
      await atomicFileWriter.write(path, data, options);
    },
    async remove(path, options) {
      if (++n === failAt) throw new Error(`disk full (injected) removing ${path}`);
      writes.push(path);
      await atomicFileWriter.remove(path, options);
    },
  };
}

describe('AgentLedger transactions', () => {
  let dir: string;
  let root: string;
  let home: string;
  let workspace: Workspace;

  beforeEach(async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'agent-lsp-session-')));
    root = join(dir, 'ws');
    home = join(dir, 'home');
    mkdirSync(join(root, 'src'), { recursive: true });
    // Bytes that a text round trip would change: CRLF, a lone CR, invalid UTF-8, no final newline.
    writeFileSync(join(root, 'src', 'a.txt'), Buffer.from([0x61, 0x0d, 0x0a, 0xff, 0xfe, 0x0d, 0x62]));
    writeFileSync(join(root, 'src', 'b.txt'), 'bee\n');
    chmodSync(join(root, 'src', 'a.txt'), 0o751);
    workspace = new Workspace({ registry: new ServerRegistry(), logger });
    await workspace.setRoot(root);
  });
  afterEach(() => {
    workspace.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  const session = (writer: FileWriter = atomicFileWriter) =>
    new AgentLedger({ workspace, logger, home, writer, clock: steppingClock(T0, 1000), ids: sequentialIds() });

  const snapshot = () => ({
    a: readFileSync(join(root, 'src', 'a.txt')),
    b: readFileSync(join(root, 'src', 'b.txt')),
    aMode: statSync(join(root, 'src', 'a.txt')).mode & 0o7777,
  });

  it('a write that fails on the third file leaves all three byte-identical and creates nothing', async () => {
    const before = snapshot();
    const writer = failingWriter(3);
    const s = session(writer);
    const call = s.startCall('apply_edit');
    await expect(
      s.transactions.applyPlan(call, undefined, (plan) => {
        plan.setText(join(root, 'new', 'deep', 'created.txt'), 'created\n');
        plan.setText(join(root, 'src', 'a.txt'), 'overwritten\n');
        plan.setText(join(root, 'src', 'b.txt'), 'never written\n');
      }),
    ).rejects.toThrow('disk full (injected)');
    // Two files were really written before the failure, then put back.
    expect(writer.writes.slice(0, 2)).toEqual([join(root, 'new', 'deep', 'created.txt'), join(root, 'src', 'a.txt')]);
    expect(snapshot()).toEqual(before);
    expect(existsSync(join(root, 'new'))).toBe(false);
    expect(s.checkpoints.list().checkpoints).toEqual([]);
    expect(s.transactions.journal().intent.read()).toBeUndefined();
    expect(call.rolledBack).toBe(true);
    expect(call.rollbackReason).toContain('disk full (injected)');
    const entry = s.finishCall(call, { x: 1 }, 'error', 'disk full');
    expect(entry).toMatchObject({ call_id: 'call_1', tool: 'apply_edit', outcome: 'error', rolled_back: true, files: call.files, root });
    expect(entry.files).toHaveLength(3);
  });

  it('success, failure, success leaves exactly the first and third changes, with exact checkpoints', async () => {
    const s = session(failingWriter(2));
    const a = join(root, 'src', 'a.txt');
    const b = join(root, 'src', 'b.txt');
    const first = s.startCall('apply_edit');
    await s.transactions.applyPlan(first, undefined, (plan) => plan.setText(a, 'first\n'));
    const second = s.startCall('apply_edit');
    await expect(s.transactions.applyPlan(second, undefined, (plan) => plan.setText(b, 'second\n'))).rejects.toThrow('injected');
    const third = s.startCall('apply_edit');
    await s.transactions.applyPlan(third, undefined, (plan) => plan.setText(b, 'third\n'));

    expect(readFileSync(a, 'utf8')).toBe('first\n');
    expect(readFileSync(b, 'utf8')).toBe('third\n');
    expect(statSync(a).mode & 0o7777).toBe(0o751);
    const listed = s.checkpoints.list().checkpoints;
    // Ids come from the injected generator (cp_2 was the failed transaction) and times from the clock.
    expect(listed.map((c) => ({ id: c.id, call: c.call_id, time: c.time, files: c.files.map((f) => f.path) }))).toEqual([
      { id: 'cp_3', call: 'call_3', time: expect.any(String), files: [b] },
      { id: 'cp_1', call: 'call_1', time: expect.any(String), files: [a] },
    ]);
    expect(listed.every((c) => c.time.startsWith('2026-01-02T03:0'))).toBe(true);
    expect(s.checkpoints.diff('cp_3').diff).toBe(['--- a/src/b.txt', '+++ b/src/b.txt', '@@ -1,1 +1,1 @@', '-bee', '+third', ''].join('\n'));
  });

  it('rolls back to before B, is a no-op the second time, dry-runs, refuses after an outside edit and undoes a rollback', async () => {
    const s = session();
    const a = join(root, 'src', 'a.txt');
    const b = join(root, 'src', 'b.txt');
    const c = join(root, 'src', 'c.txt');
    const write = async (edits: [string, string][]) => {
      const call = s.startCall('apply_edit');
      const r = await s.transactions.applyPlan(call, undefined, (plan) => edits.forEach(([p, t]) => plan.setText(p, t)));
      return r.checkpoint?.id ?? '';
    };
    await write([[a, 'A\n']]);
    const afterA = snapshot();
    const idB = await write([[a, 'AB\n'], [b, 'B\n']]);
    await write([[b, 'BC\n'], [c, 'C\n']]);
    const afterC = { ...snapshot(), c: readFileSync(c, 'utf8') };

    const dry = await s.checkpoints.rollback(s.startCall('rollback_to'), { checkpointId: idB, position: 'before', dryRun: true, force: false });
    expect(dry.files.map((f) => [f.file, f.action])).toEqual([['src/a.txt', 'restore'], ['src/b.txt', 'restore'], ['src/c.txt', 'delete']]);
    expect({ ...snapshot(), c: readFileSync(c, 'utf8') }).toEqual(afterC);

    const first = await s.checkpoints.rollback(s.startCall('rollback_to'), { checkpointId: idB, position: 'before', dryRun: false, force: false });
    expect(snapshot()).toEqual(afterA);
    expect(existsSync(c)).toBe(false);
    expect(first.checkpoint?.kind).toBe('rollback');
    const count = s.checkpoints.list().checkpoints.length;

    const again = await s.checkpoints.rollback(s.startCall('rollback_to'), { checkpointId: idB, position: 'before', dryRun: false, force: false });
    expect(again.files).toEqual([]);
    expect(again.checkpoint).toBeUndefined();
    expect(s.checkpoints.list().checkpoints.length).toBe(count);
    expect(snapshot()).toEqual(afterA);

    // An outside edit blocks undo_last (which would undo the rollback) until force.
    writeFileSync(a, 'edited by hand\n');
    const refused = s.startCall('undo_last');
    await expect(s.checkpoints.rollback(refused, { position: 'before', dryRun: false, force: false })).rejects.toThrow(/src\/a\.txt changed outside agent-lsp/);
    expect(readFileSync(a, 'utf8')).toBe('edited by hand\n');
    expect(existsSync(c)).toBe(false);
    expect(refused.rolledBack).toBe(false);

    const undo = await s.checkpoints.rollback(s.startCall('undo_last'), { position: 'before', dryRun: false, force: true });
    expect(undo.files.find((f) => f.file === 'src/a.txt')?.changed_outside).toBe(true);
    expect({ ...snapshot(), c: readFileSync(c, 'utf8') }).toEqual(afterC);
  });

  it('rolls back to "after" a checkpoint: the later calls are undone, that one is kept', async () => {
    const s = session();
    const b = join(root, 'src', 'b.txt');
    const w = async (t: string) => (await s.transactions.applyPlan(s.startCall('apply_edit'), undefined, (p) => p.setText(b, t))).checkpoint?.id ?? '';
    const first = await w('1\n');
    await w('2\n');
    await w('3\n');
    await s.checkpoints.rollback(s.startCall('rollback_to'), { checkpointId: first, position: 'after', dryRun: false, force: false });
    expect(readFileSync(b, 'utf8')).toBe('1\n');
  });

  it('a new session on the same home sees the same checkpoints and rolls back', async () => {
    const s1 = session();
    const b = join(root, 'src', 'b.txt');
    await s1.transactions.applyPlan(s1.startCall('apply_edit'), undefined, (p) => p.setText(b, 'changed\n'));
    const s2 = session();
    expect(s2.checkpoints.list().checkpoints).toEqual(s1.checkpoints.list().checkpoints);
    await s2.checkpoints.rollback(s2.startCall('undo_last'), { position: 'before', dryRun: false, force: false });
    expect(readFileSync(b, 'utf8')).toBe('bee\n');
  });

  it('prunes checkpoints by count and the blobs only they referred to', async () => {
    const s = new AgentLedger({ workspace, logger, home, clock: steppingClock(T0, 1000), ids: sequentialIds(), retention: { maxCount: 2, maxAgeMs: 3600_000 } });
    const b = join(root, 'src', 'b.txt');
    for (const t of ['1', '2', '3', '4']) await s.transactions.applyPlan(s.startCall('apply_edit'), undefined, (p) => p.setText(b, t));
    expect(s.checkpoints.list().checkpoints.map((c) => c.id)).toEqual(['cp_4', 'cp_3']);
    // cp_1's before ("bee\n") and after ("1") are gone; what cp_3 and cp_4 need is there.
    expect(() => s.checkpoints.diff('cp_3')).not.toThrow();
    await s.checkpoints.rollback(s.startCall('rollback_to'), { checkpointId: 'cp_3', position: 'before', dryRun: false, force: false });
    expect(readFileSync(b, 'utf8')).toBe('2');
  });

  it('writes one audit line per call with exact values', () => {
    const s = session();
    const call = s.startCall('find_references');
    s.finishCall(call, { b: 1, a: [2] }, 'ok');
    const [entry] = readAuditTail(join(home, 'audit.jsonl'), 10);
    expect(entry).toEqual({
      time: '2026-01-02T03:04:05.000Z',
      call_id: 'call_1',
      tool: 'find_references',
      root,
      // sha256 of {"a":[2],"b":1}: keys sorted, so argument order does not matter.
      args_sha256: '63c9663de90ee828bbda6cd9acf02d0c653986c1ec25aa239920641edc9a1de5',
      outcome: 'ok',
      duration_ms: 1000,
      files: [],
      rolled_back: false,
    });
  });
});
