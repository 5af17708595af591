// Writes and their undo on real code (issue 28; lost edits are the worst bugs): replace_in_files
// across Django's Python files, against the same replacement done here file by file; undo_last
// refused, with nothing changed, while a user's later edit sits in one of the files; then undone
// byte for byte once that edit is gone; apply_edit of one function and its undo likewise.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { isNotRun, prepareCorpus, type Corpus } from './corpora.js';
import { compareSets, judge } from './fieldOutcome.js';

const prepared = prepareCorpus('django');
const notRun = isNotRun(prepared) ? prepared.notRun : undefined;
if (notRun) console.warn(`field writes: not run (${notRun})`);

/** Every .py file under `root`, root-relative, with its text. */
function pythonFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.isFile() && e.name.endsWith('.py')) files.set(relative(root, path), readFileSync(path, 'utf8'));
    }
  };
  walk(root);
  return files;
}

/** `file sha` of each file: two trees are the same when these sets are. */
const fingerprint = (files: ReadonlyMap<string, string>): string[] => [...files].map(([f, t]) => `${f} ${createHash('sha256').update(t).digest('hex').slice(0, 16)}`);

describe.skipIf(notRun !== undefined)(`writes and undo on ${notRun ? `Django (NOT RUN: ${notRun})` : (prepared as Corpus).label}`, () => {
  const root = (prepared as Corpus).root;
  let agent: AgentLspClient;
  let original: Map<string, string>;

  beforeAll(async () => {
    original = pythonFiles(root);
    // Writes need a workspace, not a language server.
    agent = await startAgentLsp({ env: { AGENT_LSP_ROOT: root } });
  });
  afterAll(async () => {
    await agent?.close();
    (prepared as Corpus).dispose();
  });

  it('replace_in_files of a name across every .py file writes exactly the replacement; undo_last refuses while a later user edit is there, then restores every byte', async () => {
    const [needle, repl] = ['force_str(', 'force_string('];
    const expected = new Map([...original].map(([f, t]) => [f, t.split(needle).join(repl)]));
    const count = [...original.values()].reduce((n, t) => n + t.split(needle).length - 1, 0);
    expect(count, 'Django calls force_str').toBeGreaterThan(20);
    const data = ok(await agent.call('replace_in_files', { needle, repl, paths_include_glob: '**/*.py', dry_run: false }));
    const written = compareSets(fingerprint(pythonFiles(root)), fingerprint(expected), data['replaced'] === count);
    judge({ tool: 'replace_in_files', corpus: 'django', case: `${needle} → ${repl} in every .py file (${count})`, ...written });

    // A user edits one of the files afterwards: undoing would lose it, so undo_last refuses and changes nothing.
    const touched = [...original].find(([f, t]) => expected.get(f) !== t)![0];
    const userText = `${readFileSync(join(root, touched), 'utf8')}# a line the user added\n`;
    writeFileSync(join(root, touched), userText);
    const before = fingerprint(pythonFiles(root));
    const refused = await agent.call('undo_last', {});
    const unchanged = compareSets(fingerprint(pythonFiles(root)), before, true);
    judge({ tool: 'undo_last', corpus: 'django', case: 'refused over a later user edit, nothing changed', ...unchanged });
    expect(refused.text, 'undo_last says why it refused').toMatch(/changed|outside|force/i);

    // The user's line gone again: undo_last sets every file back to its bytes before the replacement.
    writeFileSync(join(root, touched), expected.get(touched)!);
    ok(await agent.call('undo_last', {}));
    judge({ tool: 'undo_last', corpus: 'django', case: 'replace_in_files undone', ...compareSets(fingerprint(pythonFiles(root)), fingerprint(original), true) });
  });

  it('apply_edit of one function\'s text and its undo_last change exactly that text, then nothing', async () => {
    const file = 'django/utils/text.py';
    const [oldText, newText] = ['def capfirst(x):', 'def capfirst(x, /):'];
    ok(await agent.call('apply_edit', { file_path: file, old_text: oldText, new_text: newText }));
    const expected = new Map(original).set(file, original.get(file)!.replace(oldText, newText));
    judge({ tool: 'apply_edit', corpus: 'django', case: `${file}: capfirst's signature`, ...compareSets(fingerprint(pythonFiles(root)), fingerprint(expected), true) });
    ok(await agent.call('undo_last', {}));
    judge({ tool: 'undo_last', corpus: 'django', case: 'apply_edit undone', ...compareSets(fingerprint(pythonFiles(root)), fingerprint(original), true) });
  });
});
