// Workspace-scope previews with pyrefly on Django 3.2, quick tier (issue 28): a broken symbolic
// link stops pyrefly's walk of the workspace (pyreflyDjango.ts), so its index holds none of
// Django's files and its references miss every dependent outside the edited file. A preview then
// knows only the dependents its text search found: it must say "Dependents may be missing", be
// partial, and never call the edit a fix or safe on the strength of files it did not examine.
// Truth: pyrefly's CLI on every Django file, before and with the edit (applied to the corpus copy
// before the front starts, then undone).
import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_SERVERS } from '@agent-lsp/lsp';
import { ok, type AgentLspClient, type ToolAnswer } from '../helpers/mcpClient.js';
import type { Corpus } from './corpora.js';
import { ENCODING, FORCE_STR, type PreviewDiag, type PreviewFile } from './previewChecks.js';
import { djangoFor, pyreflyFront } from './pyreflyDjango.js';

/** The pyrefly agent-lsp runs (the first on PATH). */
const PYREFLY = BUILTIN_SERVERS.find((s) => s.id === 'pyrefly')?.resolve(process.cwd())?.command[0] ?? 'pyrefly';

/** pyrefly's CLI (the one agent-lsp runs) on every Python file under django/: its errors as `file:line`. */
function pyreflyErrors(root: string): Set<string> {
  const files = execFileSync('find', ['django', '-name', '*.py'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
  let out: string;
  try {
    out = execFileSync(PYREFLY, ['check', '--output-format', 'json', '--summary=none', ...files], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? ''); // exits 1 when it finds errors
  }
  const errors = (JSON.parse(out) as { errors: { path: string; line: number; severity: string }[] }).errors;
  return new Set(errors.filter((e) => e.severity === 'error').map((e) => `${e.path}:${e.line}`));
}

const djangoPyrefly = djangoFor('workspace-scope previews on a partial index');
describe.skipIf(!djangoPyrefly.c)(djangoPyrefly.title.replace('find_symbol', 'preview_edit'), () => {
  const c = djangoPyrefly.c as Corpus;
  let agent: AgentLspClient;
  /** The errors the edit adds and removes, by pyrefly's CLI on the whole of django/. */
  const truth = { introduced: new Set<string>(), resolved: new Set<string>() };

  beforeAll(async () => {
    // One dangling link, whether or not this machine's Debian links dangle (libjs-jquery resolves them).
    symlinkSync(join(c.root, 'no-such-file.js'), join(c.root, 'django', 'dangling.js'));
    const path = join(c.root, ENCODING);
    const original = readFileSync(path, 'utf8');
    const before = pyreflyErrors(c.root);
    writeFileSync(path, original.replace(FORCE_STR.old_text, FORCE_STR.new_text));
    const after = pyreflyErrors(c.root);
    writeFileSync(path, original);
    for (const k of after) if (!before.has(k)) truth.introduced.add(k);
    for (const k of before) if (!after.has(k)) truth.resolved.add(k);
    agent = await pyreflyFront(c.root);
  }, 180_000);
  afterAll(async () => {
    await agent?.close();
    c?.dispose();
  });

  /** What every workspace-scope answer of the edit must get right, whatever it examined. */
  function expectLabelledPartial(answer: ToolAnswer): void {
    const data = ok(answer);
    const examined = new Set((data['files'] as PreviewFile[]).filter((f) => f.examined).map((f) => f.file));
    // Every difference it reports is pyrefly's own, in a file it examined.
    for (const d of data['errors_introduced'] as PreviewDiag[]) {
      expect(examined.has(d.file), `${d.file} introduced an error but was not examined`).toBe(true);
      expect(truth.introduced, `introduced ${d.file}:${d.line} ${d.message}`).toContain(`${d.file}:${d.line}`);
    }
    for (const d of data['errors_resolved'] as PreviewDiag[]) {
      expect(examined.has(d.file), `${d.file} resolved an error but was not examined`).toBe(true);
      expect(truth.resolved, `resolved ${d.file}:${d.line} ${d.message}`).toContain(`${d.file}:${d.line}`);
    }
    expect(data['confidence'], answer.text).toBe('partial');
    expect(answer.text).toMatch(/Dependents may be missing: pyrefly's index misses part of the workspace.*holds 0 of the \d+ Python files/);
    expect((data['dependents'] as { problems: string[] }).problems.join('\n')).toMatch(/pyrefly's index misses part of the workspace/);
    expect(answer.text).not.toMatch(/fix errors|break none|\bis safe\b|safe to apply/i);
    expect(answer.text).not.toMatch(/^net_delta [+]?\d+: no new errors \(/m);
  }

  it('preview_edit at workspace scope: partial, "Dependents may be missing", never a fix or safe', async () => {
    expectLabelledPartial(await agent.call('preview_edit', { language: 'python', file_path: join(c.root, ENCODING), ...FORCE_STR, scope: 'workspace' }));
  }, 180_000);

  it('simulate_edit then evaluate_session at workspace scope: the same', async () => {
    const session = ok(await agent.call('create_simulation_session', { workspace_root: c.root, language: 'python' }))['session_id'] as string;
    try {
      const path = join(c.root, ENCODING);
      const at = readFileSync(path, 'utf8').split('\n').findIndex((l) => l.startsWith(FORCE_STR.old_text));
      ok(await agent.call('simulate_edit', { session_id: session, file_path: path, start_line: at + 1, start_column: 1, end_line: at + 1, end_column: FORCE_STR.old_text.length + 1, new_text: FORCE_STR.new_text }));
      expectLabelledPartial(await agent.call('evaluate_session', { session_id: session, scope: 'workspace' }));
    } finally {
      await agent.call('destroy_session', { session_id: session });
    }
  }, 180_000);
});
