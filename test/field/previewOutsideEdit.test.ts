// A workspace-scope preview_edit whose dependent changes on disk while it runs: on Django's
// django/utils and the modules naming force_str, making force_str's encoding required; once every
// dependent was read and baselined and the session's text is in pyright's buffers (the front's
// test hook holds the evaluation there), `sed` turns every force_str call of the dependent naming
// it most into str(), then the evaluation goes on. That file names force_str no more, so no
// signature of force_str can change its diagnostics: whatever it contributes to the answer must be
// nothing (its new text on both sides), or it is listed as not examined and the answer is partial.
// Counting its old errors as introduced (main did: 2 in django/http/multipartparser.py) is a
// confident stale count.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';
import { djangoUtilsAndImporters, ENCODING, FORCE_STR, type PreviewDiag, type PreviewFile } from './previewChecks.js';

const django: Corpus | NotRun = prepareCorpus('django');
afterAll(() => {
  if (!isNotRun(django)) django.dispose();
});

describe.skipIf(isNotRun(django))(`preview_edit while a dependent changes on disk, on ${isNotRun(django) ? `Django: not run (${django.notRun})` : `${django.label}: django/utils and the modules naming force_str`}`, () => {
  let agent: AgentLspClient;
  let root: string;
  let marker: string;
  let release: string;

  beforeAll(async () => {
    root = djangoUtilsAndImporters(django as Corpus);
    marker = join(dirname(root), 'overlay-pushed');
    release = join(dirname(root), 'go-on');
    agent = await startAgentLsp({ env: { AGENT_LSP_HOME: join(dirname(root), '.home-outside') }, hooks: { sectionMarker: marker, holdSectionUntil: release } });
    ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python' }));
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('sed on the dependent naming force_str most, after it was read and baselined: it contributes nothing, or is not examined and the answer is partial', async () => {
    const counts = execFileSync('grep', ['-rcE', '--include', '*.py', '\\bforce_str\\(', '.'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .map((l) => /^\.\/(.+):(\d+)$/.exec(l))
      .filter((m): m is RegExpExecArray => m !== null && m[1] !== ENCODING)
      .map((m) => [m[1]!, Number(m[2])] as const)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const [dependent, before] = counts[0]!;
    const path = join(root, dependent);
    const original = readFileSync(path, 'utf8');
    let answer;
    try {
      const pending = agent.call('preview_edit', { language: 'python', file_path: ENCODING, ...FORCE_STR, scope: 'workspace', timeout_ms: 30_000 });
      while (!existsSync(marker)) await new Promise((r) => setTimeout(r, 20));
      execFileSync('sed', ['-i', 's/\\bforce_str(/str(/g', dependent], { cwd: root });
      writeFileSync(release, '');
      answer = await pending;
    } finally {
      writeFileSync(path, original);
      rmSync(release, { force: true });
    }
    const data = ok(answer);
    const examined = (data['files'] as PreviewFile[]).find((f) => f.file === dependent)?.examined ?? false;
    const its = (key: string) => (data[key] as PreviewDiag[]).filter((d) => d.file === dependent).map((d) => `${d.file}:${d.line}`);
    const contributed = [...its('errors_introduced'), ...its('errors_resolved')];
    if (examined) {
      judge({ tool: 'preview_edit (outside edit during a workspace evaluation)', corpus: 'django', case: `force_str's encoding required, sed on ${dependent} (${before} calls)`, ...compareSets(contributed, [], true) });
    } else {
      expect(data['confidence'], answer.text).toBe('partial');
      judge({ tool: 'preview_edit (outside edit during a workspace evaluation)', corpus: 'django', case: `force_str's encoding required, sed on ${dependent} (${before} calls)`, ...compareSets(contributed, [], false) });
    }
  });
});
