import { describe, expect, it } from 'vitest';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { DiagnosticsCollector, type DiagnosticsHost } from './diagnostics.js';
import { DocumentStore } from './documents.js';
import { RequestTimeoutError } from './errors.js';

const URI = 'file:///w/a.c';
const OTHER = 'file:///w/b.h';
const error = (message: string): Diagnostic => ({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message, severity: 1 });

/** A push-only host; `probe` decides how the server answers a request (never, by default). */
function host(probe: () => Promise<unknown> = () => new Promise(() => undefined)) {
  const documents = new DocumentStore({ didOpen: () => undefined, didChange: () => undefined, didClose: () => undefined });
  const h: DiagnosticsHost = {
    documents,
    supportsPullDiagnostics: () => false,
    exactDiagnostics: undefined,
    request: <R>() => probe() as Promise<R>,
  };
  return { documents, collector: new DiagnosticsCollector(h) };
}

describe('DiagnosticsCollector: settling by push', () => {
  it('a versioned push settles its version; the clear a close sends (unversioned, before the server read the reopen) settles nothing', async () => {
    const { documents, collector } = host(() => Promise.reject(new Error('method not found')));
    documents.sync(URI, 'c', 'int a;');
    collector.onPublish({ uri: URI, version: 1, diagnostics: [error('old')] });
    expect(await collector.settle(URI, 2000)).toMatchObject({ settledBy: 'version', diagnostics: [error('old')] });

    documents.close(URI);
    collector.forget(URI);
    documents.sync(URI, 'c', 'int b = x;');
    const settling = collector.settle(URI, 1500);
    collector.onPublish({ uri: URI, diagnostics: [] });
    expect((await settling).settledBy).toBe('timeout');
  });

  it("the clear pyrefly sends for a closed document, stamped with the closed version + 1 (which it never read), settles nothing of the reopened text", async () => {
    const { documents, collector } = host(() => Promise.reject(new Error('method not found')));
    documents.sync(URI, 'python', 'from PIL import Image');
    collector.onPublish({ uri: URI, version: 1, diagnostics: [error('Cannot find module PIL')] });
    documents.close(URI);
    collector.forget(URI);
    documents.sync(URI, 'python', 'from PIL import Image');
    // The clear comes after the reopen was sent (pyrefly read the close first).
    collector.onPublish({ uri: URI, version: 2, diagnostics: [] });
    const settling = collector.settle(URI, 2000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    collector.onPublish({ uri: URI, version: documents.get(URI)!.version, diagnostics: [error('Cannot find module PIL')] });
    expect(await settling).toMatchObject({ settledBy: 'version', diagnostics: [error('Cannot find module PIL')] });
  });

  it('an unversioned push after the text was sent, from a server that also versions (gopls), settles once the server answered a later request', async () => {
    const { documents, collector } = host(() => Promise.resolve([]));
    documents.sync(OTHER, 'c', '#define X 1');
    collector.onPublish({ uri: OTHER, version: 1, diagnostics: [] });
    documents.sync(URI, 'c', 'int a;');
    collector.onPublish({ uri: URI, diagnostics: [] });
    expect(await collector.settle(URI, 5000)).toMatchObject({ settledBy: 'push', diagnostics: [] });
  });

  it('a push for an earlier version of the very same text settles it, unless another document changed since', async () => {
    const { documents, collector } = host();
    documents.sync(URI, 'c', 'int a;');
    collector.onPublish({ uri: URI, version: 1, diagnostics: [error('for int a')] });
    documents.sync(URI, 'c', 'int b;');
    documents.sync(URI, 'c', 'int a;');
    expect(await collector.settle(URI, 2000)).toMatchObject({ settledBy: 'version', diagnostics: [error('for int a')] });

    documents.sync(URI, 'c', 'int b;');
    documents.sync(OTHER, 'c', '#define X 1');
    documents.sync(URI, 'c', 'int a;');
    expect((await collector.settle(URI, 1000)).settledBy).toBe('timeout');
  });

  it('for a server whose pushes carry no version: a push after the change settles once the server answered a later request, else it is only quiet', async () => {
    const answering = host(() => Promise.reject(new Error('method not found')));
    answering.documents.sync(URI, 'c', 'int a;');
    const settled = answering.collector.settle(URI, 5000);
    answering.collector.onPublish({ uri: URI, diagnostics: [error('new')] });
    expect(await settled).toMatchObject({ settledBy: 'push', diagnostics: [error('new')] });

    const silent = host();
    silent.documents.sync(URI, 'c', 'int a;');
    const quiet = silent.collector.settle(URI, 1500);
    silent.collector.onPublish({ uri: URI, diagnostics: [error('new')] });
    expect((await quiet).settledBy).toBe('quiet');
  });
});

describe('DiagnosticsCollector: settled for the workspace as it is now', () => {
  it('after a watched-file change, a push for the unchanged version counts only once sent after the server read the change', async () => {
    let answer: () => void = () => undefined;
    const { documents, collector } = host(() => new Promise((resolve) => (answer = () => resolve([]))));
    documents.sync(URI, 'c', 'int a = f();');
    collector.onPublish({ uri: URI, version: 1, diagnostics: [] });
    expect(await collector.settle(URI, 2000)).toMatchObject({ settledBy: 'version', diagnostics: [] });

    collector.workspaceChanged(); // f was renamed in another file, on disk
    const settling = collector.settle(URI, 5000);
    // The old push again, before the server read the change: not an answer.
    collector.onPublish({ uri: URI, version: 1, diagnostics: [] });
    await new Promise((r) => setTimeout(r, 50));
    answer();
    await new Promise((r) => setTimeout(r, 50));
    collector.onPublish({ uri: URI, version: 1, diagnostics: [error('undefined: f')] });
    expect(await settling).toMatchObject({ settledBy: 'version', diagnostics: [error('undefined: f')] });
  });

  it('another document\'s new text counts as a change; a server that publishes nothing more ends quiet, not confirmed', async () => {
    const { documents, collector } = host(() => Promise.resolve([]));
    documents.sync(URI, 'c', '#include "b.h"');
    collector.onPublish({ uri: URI, version: 1, diagnostics: [error('old')] });
    documents.sync(OTHER, 'c', '#define X 1');
    collector.documentChanged(OTHER);
    expect(await collector.settle(URI, 5000)).toMatchObject({ settledBy: 'quiet', diagnostics: [error('old')] });
    // Its own text changing is covered by its version.
    documents.sync(URI, 'c', '#include "b.h"\n');
    collector.documentChanged(URI);
    const settling = collector.settle(URI, 5000);
    collector.onPublish({ uri: URI, version: 2, diagnostics: [] });
    expect(await settling).toMatchObject({ settledBy: 'version' });
  });

  it('a push for a version sent after another document changed was sent after the server read that change: it settles at once', async () => {
    const { documents, collector } = host(); // the server answers no request: nothing but the push can settle
    documents.sync(URI, 'c', 'int a = X;');
    collector.onPublish({ uri: URI, version: 1, diagnostics: [error('old')] });
    documents.sync(OTHER, 'c', '#define X 1');
    collector.documentChanged(OTHER);
    documents.sync(URI, 'c', 'int a = X + 1;');
    collector.documentChanged(URI);
    collector.textSent(URI, 2);
    // Published before any request was answered: its version proves the server had read OTHER's text.
    collector.onPublish({ uri: URI, version: 2, diagnostics: [] });
    expect(await collector.settle(URI, 1500)).toMatchObject({ settledBy: 'version', diagnostics: [] });
    // A push for the version before the change proves nothing of it.
    documents.sync(OTHER, 'c', '#define X 2');
    collector.documentChanged(OTHER);
    collector.onPublish({ uri: URI, version: 2, diagnostics: [error('stale')] });
    expect((await collector.settle(URI, 1000)).settledBy).toBe('timeout');
  });
});

describe('DiagnosticsCollector: pull support registered while waiting for a push', () => {
  it('pulls once the server registers textDocument/diagnostic (basedpyright never pushes to a client that can pull)', async () => {
    const documents = new DocumentStore({ didOpen: () => undefined, didChange: () => undefined, didClose: () => undefined });
    let pull = false;
    const listeners = new Set<() => void>();
    const collector = new DiagnosticsCollector({
      documents,
      supportsPullDiagnostics: () => pull,
      exactDiagnostics: undefined,
      request: <R>(method: string) => (method === 'textDocument/diagnostic' ? Promise.resolve({ kind: 'full', items: [error('pulled')] } as R) : new Promise<R>(() => undefined)),
      onRegistrationChange: (l) => {
        listeners.add(l);
        return { dispose: () => listeners.delete(l) };
      },
    });
    documents.sync(URI, 'c', 'int a = x;');
    const settling = collector.settle(URI, 20_000);
    await new Promise((r) => setTimeout(r, 50));
    pull = true;
    for (const l of listeners) l();
    expect(await settling).toMatchObject({ settledBy: 'pull', diagnostics: [error('pulled')] });
    expect(listeners.size).toBe(0);
  });
});

describe('DiagnosticsCollector: through a broker', () => {
  it('a push the server sent after reading a change from the broker, before this side could prove it, settles by what the broker knows', async () => {
    for (const peer of [undefined, { version: 1, diagnostics: [error('after the header changed')] }]) {
      const documents = new DocumentStore({ didOpen: () => undefined, didChange: () => undefined, didClose: () => undefined });
      const collector = new DiagnosticsCollector({
        documents,
        supportsPullDiagnostics: () => false,
        exactDiagnostics: undefined,
        request: <R>() => Promise.resolve([] as R),
        ...(peer ? { peerSettled: () => Promise.resolve(peer) } : {}),
      });
      documents.sync(URI, 'c', 'int a = manhattan();');
      // The broker's watcher told the server of a header change; the server rebuilt and published
      // before this side's probe was answered: on its own, it cannot tell that push from an older one.
      collector.workspaceChanged();
      collector.onPublish({ uri: URI, version: 1, diagnostics: [error('after the header changed')] });
      const settled = await collector.settle(URI, 5_000);
      expect(settled).toEqual(peer ? { uri: URI, diagnostics: peer.diagnostics, settledBy: 'version' } : expect.objectContaining({ settledBy: 'quiet' }));
    }
  });
});

describe('DiagnosticsCollector: a pull or exact query not answered in time', () => {
  it('settles nothing (timeout, with what was last pushed) instead of failing the call: the Vue pair right after its start', async () => {
    const documents = new DocumentStore({ didOpen: () => undefined, didChange: () => undefined, didClose: () => undefined });
    for (const exactDiagnostics of [undefined, 'tsserver'] as const) {
      const collector = new DiagnosticsCollector({
        documents,
        supportsPullDiagnostics: () => exactDiagnostics === undefined,
        exactDiagnostics,
        request: <R>(method: string) => Promise.reject<R>(new RequestTimeoutError(method, 30)),
      });
      documents.sync(URI, 'c', 'int a = x;');
      collector.onPublish({ uri: URI, diagnostics: [error('earlier')] });
      expect(await collector.settle(URI, 30)).toEqual({ uri: URI, diagnostics: [error('earlier')], settledBy: 'timeout' });
    }
  });

  it('still fails the call for any other error of the server', async () => {
    const documents = new DocumentStore({ didOpen: () => undefined, didChange: () => undefined, didClose: () => undefined });
    const collector = new DiagnosticsCollector({ documents, supportsPullDiagnostics: () => true, exactDiagnostics: undefined, request: () => Promise.reject(new Error('internal error')) });
    documents.sync(URI, 'c', 'int a;');
    await expect(collector.settle(URI, 30)).rejects.toThrow('internal error');
  });
});

describe('DiagnosticsCollector.publishedForText', () => {
  it("waits for the server's own push of the current text (a push before the text was sent does not count)", async () => {
    const { documents, collector } = host();
    documents.sync(URI, 'typescript', 'const a = b;');
    collector.onPublish({ uri: URI, diagnostics: [error("Cannot find name 'b'")] });
    expect(await collector.publishedForText(URI, 50)).toBe(true);

    await new Promise((r) => setTimeout(r, 2));
    documents.sync(URI, 'typescript', 'const a = b + c;');
    expect(await collector.publishedForText(URI, 50), 'the push was of the text before').toBe(false);
    const waiting = collector.publishedForText(URI, 2000);
    collector.onPublish({ uri: URI, diagnostics: [error("Cannot find name 'b'"), error("Cannot find name 'c'")] });
    expect(await waiting).toBe(true);
  });
});
