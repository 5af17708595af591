import { describe, expect, it } from 'vitest';
import { DisposableStore, Emitter } from '@agent-lsp/protocol';
import type { LspConnection } from './connection.js';
import { perlReadiness } from './perlReadiness.js';
import { Readiness } from './readiness.js';

describe('perlReadiness', () => {
  it("is indexing until Perl::LanguageServer's stderr says its initial parsing is done, then ready", () => {
    const conn = { readiness: new Readiness() };
    const stderr = new Emitter<string>();
    const store = new DisposableStore();
    perlReadiness({ conn: conn as unknown as LspConnection, store, later: () => undefined, signalComing: () => undefined, stderrLines: (l) => stderr.on(l) });
    expect(conn.readiness.state).toBe('indexing');
    stderr.fire('LS: background_parser folders = { "file:///w" => "/w" }');
    expect(conn.readiness.state, 'before its parse is done').toBe('indexing');
    stderr.fire('LS: initial parsing done, loaded  files, parsed 3 files, 3 files');
    expect(conn.readiness.state).toBe('ready');
    store.dispose();
  });
});
