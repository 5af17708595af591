import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { closeDeletedFiles, syncWithDisk } from './diskSync.js';
import { readDiskText, type DiskState } from './diskText.js';
import { DocumentStore, type DocumentNotifier } from './documents.js';

/** A store whose notifications are recorded as `open a v1`, `change a v2`, `close a`. */
function recordingStore(): { store: DocumentStore; sent: string[]; fail: Set<string> } {
  const sent: string[] = [];
  const fail = new Set<string>();
  const name = (uri: string) => uri.slice(uri.lastIndexOf('/') + 1);
  const notifier: DocumentNotifier = {
    didOpen: (p) => void sent.push(`open ${name(p.textDocument.uri)} v${p.textDocument.version} ${p.textDocument.text}`),
    didChange: (p) => {
      if (fail.has(p.textDocument.uri)) throw new Error('server gone');
      sent.push(`change ${name(p.textDocument.uri)} v${p.textDocument.version} ${(p.contentChanges[0] as { text: string }).text}`);
    },
    didClose: (p) => void sent.push(`close ${name(p.textDocument.uri)}`),
  };
  return { store: new DocumentStore(notifier), sent, fail };
}

const state = (hash: string): DiskState => ({ size: 1, mtimeNs: 1n, ino: 1n, hash });

describe('DocumentStore: whose text the server holds', () => {
  it('records text read from disk as the disk\'s, and a changed text without it as someone\'s own', () => {
    const { store } = recordingStore();
    const disk = state('h1');
    store.sync('file:///a.py', 'python', 'x = 1\n', { disk });
    expect(store.get('file:///a.py')?.disk).toBe(disk);
    // The same text again (a client's didOpen of the file as it is) keeps what is known about it.
    store.sync('file:///a.py', 'python', 'x = 1\n');
    expect(store.get('file:///a.py')?.disk).toBe(disk);
    store.sync('file:///a.py', 'python', 'x = 2  # unsaved\n');
    expect(store.get('file:///a.py')?.disk).toBeUndefined();
    expect(store.adoptDisk('file:///a.py', 'x = 1\n', state('h2'))).toBe(false);
    expect(store.adoptDisk('file:///a.py', 'x = 2  # unsaved\n', state('h3'))).toBe(true);
    expect(store.get('file:///a.py')?.disk?.hash).toBe('h3');
  });

  it('restores a snapshot exactly: texts, origin and internal flags back, documents opened since closed', () => {
    const { store, sent } = recordingStore();
    const disk = state('h1');
    store.sync('file:///a.py', 'python', 'A', { disk });
    store.sync('file:///seed.py', 'python', 'S', { internal: true });
    const snapshot = store.snapshot(['file:///a.py']);
    snapshot.record('file:///b.py');
    snapshot.record('file:///seed.py');
    // An overlay: a's text changes, b is opened, seed is taken over by the agent.
    store.sync('file:///a.py', 'python', 'A overlay');
    store.sync('file:///b.py', 'python', 'B');
    store.sync('file:///seed.py', 'python', 'S overlay');
    // Recorded before: recording again later does not move the saved state.
    snapshot.record('file:///a.py');
    sent.length = 0;
    expect(store.restore(snapshot)).toEqual(['file:///seed.py', 'file:///b.py', 'file:///a.py']);
    expect(sent).toEqual(['change seed.py v3 S', 'close b.py', 'change a.py v3 A']);
    expect(store.get('file:///a.py')).toMatchObject({ text: 'A', disk, internal: false });
    expect(store.get('file:///seed.py')).toMatchObject({ text: 'S', internal: true, disk: undefined });
    expect(store.get('file:///b.py')).toBeUndefined();
    // Versions only grow, even across a close and a reopen, which skips the one after the close.
    store.sync('file:///b.py', 'python', 'B again');
    expect(sent.at(-1)).toBe('open b.py v3 B again');
  });

  it('tries every document of a snapshot and then says which could not be restored', () => {
    const { store, fail } = recordingStore();
    store.sync('file:///a.py', 'python', 'A');
    store.sync('file:///b.py', 'python', 'B');
    const snapshot = store.snapshot(['file:///a.py', 'file:///b.py']);
    store.sync('file:///a.py', 'python', 'A2');
    store.sync('file:///b.py', 'python', 'B2');
    fail.add('file:///a.py');
    expect(() => store.restore(snapshot)).toThrow(/could not restore the server's buffers: file:\/\/\/a\.py: server gone/);
    expect(store.get('file:///b.py')?.text).toBe('B');
  });
});

describe('syncWithDisk', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-docs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  async function openFromDisk(store: DocumentStore, path: string): Promise<string> {
    const file = await readDiskText(path);
    if (!file) throw new Error(`${path} is missing`);
    const uri = pathToUri(path);
    store.sync(uri, 'python', file.text, { disk: file.state });
    return uri;
  }

  it('gives the server a changed file\'s new text and closes a deleted one; unchanged files are not re-read', async () => {
    const { store, sent } = recordingStore();
    const a = join(dir, 'a.py');
    const b = join(dir, 'b.py');
    writeFileSync(a, 'a = 1\n');
    writeFileSync(b, 'b = 1\n');
    const [ua, ub] = [await openFromDisk(store, a), await openFromDisk(store, b)];
    sent.length = 0;
    expect(await syncWithDisk(store, [ua, ub], { ownText: 'keep' })).toEqual({ resynced: [], closed: [] });
    writeFileSync(a, '# inserted\na = 1\n');
    unlinkSync(b);
    expect(await syncWithDisk(store, [ua, ub], { ownText: 'keep' })).toEqual({ resynced: [ua], closed: [ub] });
    expect([...sent].sort()).toEqual(['change a.py v2 # inserted\na = 1\n', 'close b.py']);
    expect(store.get(ua)?.disk?.size).toBe(Buffer.byteLength('# inserted\na = 1\n'));
  });

  it('never overwrites text of someone\'s own when told to keep it, and replaces it when told to', async () => {
    const { store } = recordingStore();
    const a = join(dir, 'a.py');
    writeFileSync(a, 'a = 1\n');
    const uri = pathToUri(a);
    store.sync(uri, 'python', 'a = 1  # unsaved\n');
    writeFileSync(a, 'a = 2\n');
    expect(await syncWithDisk(store, [uri], { ownText: 'keep' })).toEqual({ resynced: [], closed: [] });
    expect(store.get(uri)?.text).toBe('a = 1  # unsaved\n');
    expect(await syncWithDisk(store, [uri], { ownText: 'replace' })).toEqual({ resynced: [uri], closed: [] });
    expect(store.get(uri)).toMatchObject({ text: 'a = 2\n', disk: expect.objectContaining({ size: 6 }) });
  });

  it('adopts text of unknown origin that equals the file, so it follows the disk from then on', async () => {
    const { store } = recordingStore();
    const a = join(dir, 'a.py');
    writeFileSync(a, 'a = 1\n');
    const uri = pathToUri(a);
    store.sync(uri, 'python', 'a = 1\n');
    await syncWithDisk(store, [uri], { ownText: 'keep' });
    expect(store.get(uri)?.disk).toBeDefined();
    writeFileSync(a, 'a = 3\n');
    expect((await syncWithDisk(store, [uri], { ownText: 'keep' })).resynced).toEqual([uri]);
  });

  it('compares content when forced, even when size and mtime did not move', async () => {
    const { store } = recordingStore();
    const a = join(dir, 'a.py');
    writeFileSync(a, 'a = 1\n');
    const uri = await openFromDisk(store, a);
    // Pretend the stat matches what a same-length rewrite in the same clock tick would show.
    const doc = store.get(uri);
    writeFileSync(a, 'a = 9\n');
    const now = (await readDiskText(a))?.state;
    if (!doc?.disk || !now) throw new Error('no disk state');
    doc.disk = { ...now, hash: doc.disk.hash };
    expect((await syncWithDisk(store, [uri], { ownText: 'replace' })).resynced).toEqual([]);
    expect((await syncWithDisk(store, [uri], { ownText: 'replace', force: true })).resynced).toEqual([uri]);
    expect(store.get(uri)?.text).toBe('a = 9\n');
  });
});

describe('closeDeletedFiles', () => {
  it("opens and closes each deleted file of the server's languages that it does not hold, and nothing else", () => {
    const { store, sent } = recordingStore();
    const held = pathToUri('/w/held.ts');
    store.sync(held, 'typescript', 'x');
    sent.length = 0;
    closeDeletedFiles(store, { extensions: { '.ts': 'typescript' } }, [pathToUri('/w/gone.ts'), held, pathToUri('/w/notes.md'), pathToUri('/w/dir')]);
    expect(sent).toEqual(['open gone.ts v1 ', 'close gone.ts']);
    expect(store.get(held)?.text).toBe('x');
    expect(store.get(pathToUri('/w/gone.ts'))).toBeUndefined();
  });
});
