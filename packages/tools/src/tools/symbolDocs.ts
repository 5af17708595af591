import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { z } from 'zod';
import type { Hover } from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';
import { detectPythonInterpreter, findExecutable } from '@agent-lsp/lsp';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { readyOutput } from '../catalog/schemas.js';
import { symbolPathInput, symbolTargetInput } from '../symbols/symbolInput.js';
import { symbolKindName } from '../symbols/symbolKinds.js';
import { isTarget, resolveSymbolTarget, type SymbolTarget } from '../symbols/symbolTarget.js';
import { defineTool, READ_ONLY, type ToolContext } from '../catalog/toolDefinition.js';
import { DOCSTRING_READER, docstringReaderArgv } from './pythonDocstrings.js';
import { hoverText } from './symbols.js';

const DOC_TIMEOUT_MS = 20_000;
const MAX_DOC_CHARS = 20_000;

interface Answer {
  source: 'python ast' | 'go doc' | 'hover';
  documentation: string;
  command?: string[];
}

/** Runs argv (never a shell) in `cwd`, `input` on its stdin; the output on success, undefined on failure or timeout. */
function run(argv: string[], cwd: string, env: NodeJS.ProcessEnv, signal: AbortSignal, input = ''): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = execFile(argv[0] as string, argv.slice(1), { cwd, env, timeout: DOC_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, signal, killSignal: 'SIGKILL' }, (err, stdout) => {
      resolve(err ? undefined : stdout);
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(input);
  });
}

/** The workspace root holding a path (the primary root otherwise). */
function rootOf(ctx: ToolContext, path: string): string {
  return ctx.workspace.rootList.find((r) => path.startsWith(r.endsWith(sep) ? r : r + sep)) ?? (ctx.workspace.primaryRoot as string);
}

/** Only symbols a path can name: not locals inside functions. */
function reachable(t: SymbolTarget): boolean {
  for (let n = t.node.parent; n; n = n.parent) if ([6, 9, 12].includes(n.kind)) return false;
  return true;
}

/** The symbol's signature and docstrings, read from the source by Python's ast (nothing is imported). */
async function pythonDocs(ctx: ToolContext, t: SymbolTarget): Promise<Answer | undefined> {
  const root = rootOf(ctx, t.doc.handle.path);
  const python = detectPythonInterpreter(root)?.path;
  if (!python) return undefined;
  const argv = docstringReaderArgv(python, t.doc.handle.path, t.qualified);
  const out = await run(argv, root, process.env, ctx.signal, DOCSTRING_READER);
  return out ? { source: 'python ast', documentation: out, command: argv } : undefined;
}

/** `go doc ./pkg Type.Method`, from the module root (the directory of the nearest go.mod). */
async function goDoc(ctx: ToolContext, t: SymbolTarget): Promise<Answer | undefined> {
  const go = findExecutable('go');
  if (!go) return undefined;
  const root = rootOf(ctx, t.doc.handle.path);
  let moduleRoot = dirname(t.doc.handle.path);
  while (!existsSync(join(moduleRoot, 'go.mod')) && moduleRoot.startsWith(root) && moduleRoot !== root) moduleRoot = dirname(moduleRoot);
  const pkg = relative(moduleRoot, dirname(t.doc.handle.path));
  const argv = [go, 'doc', pkg ? `./${pkg.split(sep).join('/')}` : '.', t.qualified];
  const out = await run(argv, moduleRoot, process.env, ctx.signal);
  return out ? { source: 'go doc', documentation: out, command: argv } : undefined;
}

async function hover(ctx: ToolContext, t: SymbolTarget): Promise<Answer> {
  const { conn, uri } = t.doc.handle;
  const h = await ctx.workspace.query<Hover | null>(conn, 'textDocument/hover', { textDocument: { uri }, position: t.node.selectionRange.start }, ctx.signal);
  return { source: 'hover', documentation: h ? hoverText(h.contents) : '' };
}

export const getSymbolDocumentation = defineTool({
  name: 'get_symbol_documentation',
  title: 'Get symbol documentation',
  description: 'Canonical docs of a symbol: Python docstrings (read, not imported), go doc, else the server\'s hover; says which answered.',
  group: 'analysis',
  input: () => ({
    ...symbolTargetInput,
    symbol: symbolPathInput.optional().describe('Alias of symbol_path.'),
    language_id: z.string().optional().describe('Without file_path: search this language\'s server only.'),
  }),
  output: () => ({
    ...readyOutput,
    qualified_name: z.string().optional(),
    kind: z.string().optional(),
    file: z.string().optional(),
    line: z.number().optional(),
    source: z.enum(['python ast', 'go doc', 'hover']).optional().describe('What answered.'),
    command: z.array(z.string()).optional().describe('The argv run, for Python and go doc.'),
    documentation: z.string().optional(),
    truncated_at: z.number().optional().describe('Set when the documentation was cut: its first this many characters.'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    if (args.symbol !== undefined && args.symbol_path !== undefined && args.symbol !== args.symbol_path) {
      throw new UserError('invalid_argument', 'symbol and symbol_path name the same thing: give one.');
    }
    const t = await resolveSymbolTarget(ctx, { ...args, symbol_path: args.symbol_path ?? args.symbol });
    if (!isTarget(t)) return t;
    const lang = t.doc.handle.languageId;
    let answer: Answer | undefined;
    if (reachable(t) && lang === 'python') answer = await pythonDocs(ctx, t);
    else if (reachable(t) && lang === 'go') answer = await goDoc(ctx, t);
    answer ??= await hover(ctx, t);
    return {
      ready: true,
      qualified_name: t.qualified,
      kind: symbolKindName(t.node.kind),
      file: t.doc.label,
      line: t.node.selectionRange.start.line + 1,
      ...answer,
      documentation: answer.documentation.slice(0, MAX_DOC_CHARS),
      ...(answer.documentation.length > MAX_DOC_CHARS ? { truncated_at: MAX_DOC_CHARS } : {}),
    };
  },
  text: (r) => (!r.ready ? notReadyText(r as NotReadyResult) : `${r.qualified_name ?? ''} (${r.source ?? ''}):\n${(r.documentation ?? '').trim() || 'No documentation.'}${r.truncated_at ? `\n[cut at ${r.truncated_at} characters: get_symbol_source gives the whole symbol]` : ''}`),
});
