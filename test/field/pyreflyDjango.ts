// Django with pyrefly as the Python server, for the find_symbol field cases (pyreflySymbols*.test.ts):
// the corpus copy, the front started on it, and the truth of where a class is defined (Python's ast).
import { execFileSync } from 'node:child_process';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';
import { isNotRun, prepareCorpus, type Corpus, type NotRun } from './corpora.js';

export const WAIT = { language_id: 'python', ready_timeout_seconds: 120 };

/** Every `class <name>` in the tree, as `file:line` (root-relative), by Python's ast. */
export function classDefinitions(root: string, name: string): string[] {
  const script = `
import ast, os, sys
root, name = sys.argv[1], sys.argv[2]
for d, _, files in os.walk(root):
    for f in files:
        if f.endswith('.py'):
            p = os.path.join(d, f)
            for n in ast.walk(ast.parse(open(p, encoding='utf-8').read())):
                if isinstance(n, ast.ClassDef) and n.name == name:
                    print(f"{os.path.relpath(p, root)}:{n.lineno}")
`;
  return execFileSync('python3', ['-c', script, root, name], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).sort();
}

/** Django's copy with pyrefly on PATH, or why not. */
export function djangoFor(what: string): { c?: Corpus; title: string } {
  const prepared: Corpus | NotRun = onPath('pyrefly') ? prepareCorpus('django') : { notRun: 'pyrefly is not on PATH (agent-lsp servers install python:pyrefly)' };
  if (isNotRun(prepared)) return { title: `field find_symbol, pyrefly, Django: ${what} (NOT RUN: ${prepared.notRun})` };
  return { c: prepared, title: `field find_symbol, pyrefly, Django: ${what}` };
}

/** A front with pyrefly as the Python server, started on `root` (ready: its workspace index built). */
export async function pyreflyFront(root: string): Promise<AgentLspClient> {
  const agent = await startAgentLsp({ args: ['--python-server', 'pyrefly'] });
  ok(await agent.call('start_lsp', { root_dir: root, language_id: 'python', ready_timeout_seconds: 120 }));
  return agent;
}

export interface Found {
  file: string;
  line: number;
  name: string;
}

