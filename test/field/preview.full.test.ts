// The full tier of test/field/preview.test.ts: the whole of Django, where pyright takes a minute
// and a workspace preview at the default timeout leaves many dependents unsettled (on main it said
// "net_delta -50 … fix errors and break none" for an edit that breaks callers).
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { ENCODING, expectNoFixFromUnexamined, FORCE_STR } from './previewChecks.js';

const django: Corpus | NotRun = prepareCorpus('django');

afterAll(() => {
  if (!isNotRun(django)) django.dispose();
});

describe.skipIf(isNotRun(django))(`preview_edit at workspace scope on ${isNotRun(django) ? `Django: not run (${django.notRun})` : django.label}`, () => {
  let agent: AgentLspClient;

  beforeAll(async () => {
    const root = (django as Corpus).root;
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(dirname(root), '.home') } });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('making force_str\'s encoding required, at the default timeout: unsettled dependents count for nothing and nothing calls it a fix', async () => {
    const answer = await agent.call('preview_edit', { language: 'python', file_path: ENCODING, ...FORCE_STR, scope: 'workspace' });
    expectNoFixFromUnexamined(answer, (django as Corpus).root);
  });
});
