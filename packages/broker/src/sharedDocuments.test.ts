import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '@agent-lsp/lsp';
import { pathToUri } from '@agent-lsp/protocol';
import { SharedDocuments } from './sharedDocuments.js';

/**
 * SharedDocuments over a real DocumentStore whose notifications are recorded instead of sent: what
 * the server would hold, and what it would be told, when clients come and go and files change.
 */
describe('SharedDocuments and the disk', () => {
  let dir: string;
  let sent: string[];
  let store: DocumentStore;
  let docs: SharedDocuments;
  const FRONT = 1;
  const EDITOR = 2;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'agent-lsp-shared-'));
    sent = [];
    store = new DocumentStore({
      didOpen: (p) => void sent.push(`open v${p.textDocument.version}`),
      didChange: (p) => void sent.push(`change v${p.textDocument.version} ${(p.contentChanges[0] as { text: string }).text}`),
      didClose: () => void sent.push('close'),
    });
    docs = new SharedDocuments(() => store);
  });
  afterEach(() => {
    docs.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  function file(name: string, text: string): { path: string; uri: string } {
    const path = join(dir, name);
    writeFileSync(path, text);
    return { path, uri: pathToUri(path) };
  }

  function open(client: number, uri: string, text: string): void {
    docs.didOpen(client, { textDocument: { uri, languageId: 'python', version: 1, text } });
  }

  it('keeps a document the last client let go open while it is the disk\'s, and resyncs it when the file changes', async () => {
    const a = file('a.py', 'a = 1\n');
    open(FRONT, a.uri, 'a = 1\n');
    docs.dropClient(FRONT);
    await docs.settled();
    expect(store.get(a.uri)?.text).toBe('a = 1\n');
    // sed -i, unseen by any watcher: the next request's check finds it.
    writeFileSync(a.path, '# one\n# two\n# three\na = 1\n');
    await docs.refreshUnheld();
    expect(store.get(a.uri)?.text).toBe('# one\n# two\n# three\na = 1\n');
    expect(sent.at(-1)).toBe('change v2 # one\n# two\n# three\na = 1\n');
    unlinkSync(a.path);
    await docs.refreshUnheld();
    expect(store.get(a.uri)).toBeUndefined();
  });

  it('closes at once, on release, a document whose text was a client\'s own', async () => {
    const a = file('a.py', 'a = 1\n');
    open(FRONT, a.uri, 'a = 1  # unsaved\n');
    docs.didClose(FRONT, { textDocument: { uri: a.uri } });
    await docs.settled();
    expect(store.get(a.uri)).toBeUndefined();
  });

  it('never overwrites a client\'s unsaved text with the disk, whatever the watcher or a request check says', async () => {
    const a = file('a.py', 'a = 1\n');
    open(EDITOR, a.uri, 'a = 1  # unsaved\n');
    await docs.settled();
    writeFileSync(a.path, 'a = 2\n');
    await docs.diskChanged([a.uri]);
    await docs.refreshUnheld();
    expect(store.get(a.uri)?.text).toBe('a = 1  # unsaved\n');
    expect(docs.clientDocument(EDITOR, a.uri)?.text).toBe('a = 1  # unsaved\n');
    unlinkSync(a.path);
    await docs.diskChanged([a.uri]);
    expect(store.get(a.uri)?.text).toBe('a = 1  # unsaved\n');
  });

  it('resyncs a held document whose holders\' text was the disk\'s when the watcher reports it; the holder\'s own copy stays its own', async () => {
    const a = file('a.py', 'a = 1\n');
    open(FRONT, a.uri, 'a = 1\n');
    await docs.settled();
    writeFileSync(a.path, 'a = 2\n');
    await docs.diskChanged([a.uri]);
    expect(store.get(a.uri)?.text).toBe('a = 2\n');
    expect(docs.clientDocument(FRONT, a.uri)?.text).toBe('a = 1\n');
    // A deleted file stays open for its holder: closing it is the holder's business.
    unlinkSync(a.path);
    await docs.diskChanged([a.uri]);
    expect(store.get(a.uri)?.text).toBe('a = 2\n');
  });

  it('after an exclusive section put a document back that nobody holds, lets it linger or closes it like any release', async () => {
    const a = file('a.py', 'a = 1\n');
    const snapshot = store.snapshot([a.uri]);
    store.sync(a.uri, 'python', 'a = 1\n');
    store.restore(snapshot);
    expect(store.get(a.uri)).toBeUndefined();
    store.sync(a.uri, 'python', 'a = 1  # overlay left behind\n');
    docs.restored([a.uri]);
    await docs.settled();
    expect(store.get(a.uri)).toBeUndefined();
    store.sync(a.uri, 'python', 'a = 1\n');
    docs.restored([a.uri]);
    await docs.settled();
    expect(store.get(a.uri)?.disk).toBeDefined();
  });

  it('opens and closes a FIFO without ever reading from it (the broker must not block)', async () => {
    const fifo = join(dir, 'pipe.py');
    execFileSync('mkfifo', [fifo]);
    const uri = pathToUri(fifo);
    open(FRONT, uri, 'x = 1\n');
    docs.didClose(FRONT, { textDocument: { uri } });
    await docs.settled();
    expect(store.get(uri)).toBeUndefined();
  });
});
