// find_symbol with pyrefly on Django 3.2, quick tier (issue 28): pyrefly's walk of the workspace
// gives up at a broken symbolic link (Debian's Django has two: jquery.js -> /usr/share/javascript),
// leaving its workspace index empty for good; asked directly it answers [] for every name. The
// answer must say it is partial, never "No symbol(s)". Truth: Python's ast.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, type AgentLspClient } from '../helpers/mcpClient.js';
import type { Corpus } from './corpora.js';
import { classDefinitions, djangoFor, pyreflyFront, WAIT } from './pyreflyDjango.js';

const broken = djangoFor('a broken symbolic link leaves its index empty');
describe.skipIf(!broken.c)(broken.title, () => {
  const c = broken.c as Corpus;
  let agent: AgentLspClient;
  beforeAll(async () => {
    // One dangling link, whether or not this machine's Debian links dangle (libjs-jquery resolves them).
    symlinkSync(join(c.root, 'no-such-file.js'), join(c.root, 'django', 'dangling.js'));
    agent = await pyreflyFront(c.root);
  }, 180_000);
  afterAll(async () => {
    await agent?.close();
    c?.dispose();
  });

  it('a search pyrefly cannot answer from its index says it is partial, what it searched and what to do, never a bare "No symbol(s)"', async () => {
    expect(classDefinitions(c.root, 'SessionBase').length).toBeGreaterThan(0);
    const answer = await agent.call('find_symbol', { query: 'SessionBase', ...WAIT });
    const data = ok(answer);
    expect(data['complete']).toBe(false);
    const servers = data['servers'] as { server: string; partial?: string }[];
    expect(servers.find((s) => s.server === 'pyrefly')?.partial).toMatch(/holds 0 of the \d+ Python files.*open the file that should hold a symbol/);
    expect(answer.text).toMatch(/^INCOMPLETE: pyrefly \(python\) searched part of the workspace/);
  }, 180_000);

  it('a symbol_path looked up through that index says the search did not cover the workspace, never "No symbol matches … in the workspace"', async () => {
    const answer = await agent.call('get_symbol_source', { symbol_path: 'SessionBase', language_id: 'python' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/in the files examined of the workspace\. The search did not cover the whole workspace: pyrefly's workspace index holds 0 of/);
  }, 180_000);

  it('find_references from that index says it is partial (complete:false, INCOMPLETE first), never a bare list as if it were every reference', async () => {
    const answer = await agent.call('find_references', { file_path: join(c.root, 'django/contrib/sessions/backends/base.py'), position_pattern: 'class @@SessionBase', ...WAIT });
    const data = ok(answer);
    expect(data['ready']).toBe(true);
    expect(data['complete']).toBe(false);
    expect(data['partial']).toMatch(/holds 0 of the \d+ Python files/);
    expect(answer.text).toMatch(/^INCOMPLETE: the server answered from an index that misses part of the workspace/);
  }, 180_000);
});
