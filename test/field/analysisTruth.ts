// Ground truth for the derived-analysis field tests (test/field/analysis.test.ts), computed without
// agent-lsp: gopls's own call hierarchy asked over stdio by a bare client, and the TypeScript
// compiler's own reading of heritage clauses.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import ts from 'typescript';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';

export interface TruthCall {
  name: string;
  file: string;
  /** 1-based line and column (characters) of each call site. */
  sites: string[];
}

interface LspRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}
interface Item {
  name: string;
  uri: string;
  range: LspRange;
  selectionRange: LspRange;
}

/** 1-based line and character column of `needle` in a file (code points, as agent-lsp counts). */
function positionOf(text: string, needle: string): { line: number; character: number } {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`${needle} not found`);
  const before = text.slice(0, at).split('\n');
  return { line: before.length - 1, character: (before.at(-1) ?? '').length };
}

/** gopls's incoming calls of the function whose name follows `needle` in `file`, asked directly. */
export async function goplsIncomingCalls(root: string, file: string, needle: string, nameOffset: number): Promise<TruthCall[]> {
  const child = spawn('gopls', ['serve'], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
  const rpc = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  rpc.onRequest(() => null);
  rpc.listen();
  try {
    const rootUri = pathToFileURL(root).href;
    await rpc.sendRequest('initialize', { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: 'root' }], capabilities: {} });
    await rpc.sendNotification('initialized', {});
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const uri = pathToFileURL(path).href;
    await rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'go', version: 1, text } });
    const at = positionOf(text, needle);
    const position = { line: at.line, character: at.character + nameOffset };
    const items = await rpc.sendRequest<Item[]>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position });
    const item = items[0];
    if (!item) throw new Error(`gopls has no call hierarchy item at ${file}: ${needle}`);
    const calls = await rpc.sendRequest<{ from: Item; fromRanges: LspRange[] }[]>('callHierarchy/incomingCalls', { item });
    return calls.map((c) => {
      const callerPath = fileURLToPath(c.from.uri);
      const lines = readFileSync(callerPath, 'utf8').split('\n');
      const column = (r: LspRange) => [...(lines[r.start.line] ?? '').slice(0, r.start.character)].length + 1;
      return { name: c.from.name, file: relative(root, callerPath), sites: c.fromRanges.map((r) => `${r.start.line + 1}:${column(r)}`).sort() };
    });
  } finally {
    rpc.dispose();
    child.kill();
  }
}

/**
 * The classes and interfaces that extend or implement `base` (declared in `baseFile`), directly or
 * through each other up to `levels` levels, as the TypeScript compiler resolves their heritage
 * clauses: "level name file", one per type.
 */
export function heritageSubtypes(root: string, baseFile: string, base: string, levels: number): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('tsconfig.json of the corpus could not be read');
  const program = ts.createProgram(config.fileNames, config.options);
  const checker = program.getTypeChecker();
  const declared = new Map<ts.Symbol, { name: string; file: string }>();
  const parents = new Map<ts.Symbol, ts.Symbol[]>();
  const resolve = (s: ts.Symbol | undefined) => (s && s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || !sf.fileName.startsWith(root)) continue;
    const visit = (node: ts.Node): void => {
      if ((ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) && node.name) {
        const own = resolve(checker.getSymbolAtLocation(node.name));
        if (own) {
          declared.set(own, { name: node.name.text, file: relative(root, sf.fileName) });
          for (const clause of node.heritageClauses ?? []) {
            for (const t of clause.types) {
              const named = resolve(checker.getSymbolAtLocation(t.expression));
              if (named) parents.set(own, [...(parents.get(own) ?? []), named]);
            }
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  const origin = [...declared].find(([, d]) => d.name === base && d.file === baseFile)?.[0];
  if (!origin) throw new Error(`${base} is not declared in ${baseFile}`);
  const out: string[] = [];
  const seen = new Set([origin]);
  let frontier = [origin];
  for (let level = 1; level <= levels && frontier.length > 0; level++) {
    const next: ts.Symbol[] = [];
    for (const [own, named] of parents) {
      if (seen.has(own) || !named.some((p) => frontier.includes(p))) continue;
      seen.add(own);
      next.push(own);
      const d = declared.get(own);
      if (d) out.push(`${level} ${d.name} ${d.file}`);
    }
    frontier = next;
  }
  return out.sort();
}
