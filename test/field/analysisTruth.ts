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

/** A gopls started on `root` and asked directly, over stdio, by a bare client. */
export class GoplsDirect {
  private readonly child;
  private readonly rpc;

  private constructor(readonly root: string) {
    this.child = spawn('gopls', ['serve'], { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] });
    this.rpc = createMessageConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.rpc.onRequest(() => null);
    this.rpc.listen();
  }

  static async start(root: string): Promise<GoplsDirect> {
    const g = new GoplsDirect(root);
    const rootUri = pathToFileURL(root).href;
    await g.rpc.sendRequest('initialize', { processId: process.pid, rootUri, workspaceFolders: [{ uri: rootUri, name: 'root' }], capabilities: { textDocument: { documentSymbol: { hierarchicalDocumentSymbolSupport: true } } } });
    await g.rpc.sendNotification('initialized', {});
    return g;
  }

  /** Opens `file` and returns the LSP position of `needle` in it, moved `offset` characters on. */
  async at(file: string, needle: string, offset: number): Promise<{ uri: string; position: { line: number; character: number } }> {
    const path = join(this.root, file);
    const text = readFileSync(path, 'utf8');
    const uri = pathToFileURL(path).href;
    await this.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'go', version: 1, text } });
    const p = positionOf(text, needle);
    return { uri, position: { line: p.line, character: p.character + offset } };
  }

  /** gopls's incoming calls of the function whose name is `offset` characters into `needle`. */
  async incomingCalls(file: string, needle: string, offset: number): Promise<TruthCall[]> {
    const { uri, position } = await this.at(file, needle, offset);
    const items = await this.rpc.sendRequest<Item[]>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position });
    const item = items[0];
    if (!item) throw new Error(`gopls has no call hierarchy item at ${file}: ${needle}`);
    const calls = await this.rpc.sendRequest<{ from: Item; fromRanges: LspRange[] }[]>('callHierarchy/incomingCalls', { item });
    return calls.map((c) => ({ name: c.from.name, file: relative(this.root, fileURLToPath(c.from.uri)), sites: c.fromRanges.map((r) => this.site(c.from.uri, r)).sort() }));
  }

  /**
   * gopls's callers of the function at `needle`, `depth` levels out, as find_callers defines them:
   * each function once, at the level it is first met, expanded once; level n > 1 through a level n-1 one.
   * Asked one request at a time, in the order the levels list them.
   */
  async callerLevels(file: string, needle: string, offset: number, depth: number): Promise<{ level: number; name: string; file: string; line: number; callers: string[] }[]> {
    const { uri, position } = await this.at(file, needle, offset);
    const roots = await this.rpc.sendRequest<Item[]>('textDocument/prepareCallHierarchy', { textDocument: { uri }, position });
    const keyOf = (i: Item) => `${i.uri}#${i.selectionRange.start.line}:${i.selectionRange.start.character}`;
    const listed = new Map<string, { level: number; name: string; file: string; line: number; callers: string[] }>();
    const expanded = new Set(roots.map(keyOf));
    let frontier = roots;
    for (let level = 1; level <= depth && frontier.length > 0; level++) {
      const next: Item[] = [];
      for (const item of frontier) {
        for (const call of await this.rpc.sendRequest<{ from: Item }[]>('callHierarchy/incomingCalls', { item })) {
          const k = keyOf(call.from);
          const entry = listed.get(k);
          if (entry) {
            if (entry.level === level) entry.callers.push(item.name);
            continue;
          }
          listed.set(k, { level, name: call.from.name, file: relative(this.root, fileURLToPath(call.from.uri)), line: call.from.selectionRange.start.line + 1, callers: [item.name] });
          if (!expanded.has(k)) {
            expanded.add(k);
            next.push(call.from);
          }
        }
      }
      frontier = next;
    }
    return [...listed.values()];
  }

  /** "file:line:column" of each reference from another file than `file` to the name there. */
  async referencesFromOtherFiles(file: string, needle: string, offset: number): Promise<string[]> {
    const { uri, position } = await this.at(file, needle, offset);
    const refs = await this.rpc.sendRequest<{ uri: string; range: LspRange }[]>('textDocument/references', { textDocument: { uri }, position, context: { includeDeclaration: false } });
    return refs.filter((r) => r.uri !== uri).map((r) => `${relative(this.root, fileURLToPath(r.uri))}:${this.site(r.uri, r.range)}`).sort();
  }

  /** The names of a file's top-level document symbols. */
  async topLevelSymbols(file: string): Promise<string[]> {
    const { uri } = await this.at(file, '', 0);
    const symbols = await this.rpc.sendRequest<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
    return symbols.map((s) => s.name).sort();
  }

  dispose(): void {
    this.rpc.dispose();
    this.child.kill();
  }

  private site(uri: string, r: LspRange): string {
    const lines = readFileSync(fileURLToPath(uri), 'utf8').split('\n');
    return `${r.start.line + 1}:${[...(lines[r.start.line] ?? '').slice(0, r.start.character)].length + 1}`;
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
