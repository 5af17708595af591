import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Location } from 'vscode-languageserver-protocol';
import { pathToUri, resolvePositionPattern, toLspPosition } from '@agent-lsp/protocol';
import { createLogger, ServerRegistry, startDirectConnection, type LspConnection } from '@agent-lsp/lsp';
import { isNotRun, prepareCorpus, type Corpus } from '../field/corpora.js';

/**
 * pyright answers find-references before it has found every source file of the workspace, from
 * the files it has loaded so far, and says nothing of it: asked at once on the Python stdlib it
 * gave 16 of os.path.join's 1,723 references, and through a broker on a loaded machine (issue 28,
 * the startup bench's retried cold front) 387, labelled complete. Its "Found N source files" line
 * is the readiness signal; the no-signal fallback (180 s, here shortened by
 * AGENT_LSP_READY_FALLBACK_MS to nothing) called pyright ready without it. A pyright that logs is
 * waited for until that line, however long.
 */
const corpus = prepareCorpus('django');
const title = isNotRun(corpus) ? `pyright readiness past the no-signal fallback — not run (${corpus.notRun})` : 'pyright readiness past the no-signal fallback (Django)';

describe(title, () => {
  if (isNotRun(corpus)) return;
  const c: Corpus = corpus;
  const FILE = 'django/utils/encoding.py';
  let conn: LspConnection;
  let foundLogged = false;
  const saved = process.env['AGENT_LSP_READY_FALLBACK_MS'];

  beforeAll(async () => {
    // The fallback elapses before pyright has even read its configuration.
    process.env['AGENT_LSP_READY_FALLBACK_MS'] = '0';
    conn = await startDirectConnection({ server: new ServerRegistry().forLanguage('python'), rootDir: c.root, workspaceFolders: [c.root], logger: createLogger({ level: 'error' }) });
    conn.onLogMessage((m) => {
      if (/^Found \d+ source files?/.test(m.message)) foundLogged = true;
    });
  }, 120_000);
  afterAll(async () => {
    if (saved === undefined) delete process.env['AGENT_LSP_READY_FALLBACK_MS'];
    else process.env['AGENT_LSP_READY_FALLBACK_MS'] = saved;
    await conn?.shutdown();
    c.dispose();
  });

  it('is ready only once pyright has found every source file, and its first references answer is the whole one', async () => {
    await conn.readiness.waitReady({ timeoutMs: 120_000 });
    const readyBeforeFound = !foundLogged;
    const text = readFileSync(join(c.root, FILE), 'utf8');
    const uri = pathToUri(join(c.root, FILE));
    conn.documents.sync(uri, 'python', text);
    const position = toLspPosition(text, resolvePositionPattern(text, 'def @@force_str(', FILE));
    const ask = () => conn.request<Location[]>('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: true } }, { timeoutMs: 120_000 });
    const first = await ask();
    // The truth: asked again once pyright has logged that it found every file.
    const deadline = Date.now() + 120_000;
    while (!foundLogged && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const whole = await ask();
    expect({ readyBeforeFound, first: first.length }).toEqual({ readyBeforeFound: false, first: whole.length });
    expect(whole.length).toBeGreaterThan(20);
  }, 300_000);
});
