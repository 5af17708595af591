import { z } from 'zod';
import type { DocumentSymbol, SymbolInformation } from 'vscode-languageserver-protocol';
import { isWithin, uriToPath } from '@agent-lsp/protocol';
import { isNotReady, openReadyDocument } from '../project/documentQuery.js';
import { requestLocations } from '../project/freshAnswer.js';
import { compareStrings } from '../output/locations.js';
import { notReadyText, type NotReadyResult } from '../project/readinessGate.js';
import { isTestFile } from '../analysis/testFiles.js';
import { testsByNaming } from '../runners/testFiles.js';
import { readinessInput, readyOutput } from '../catalog/schemas.js';
import { defineTool, READ_ONLY } from '../catalog/toolDefinition.js';

/** Top-level symbols asked for references at most (each is one references request). */
const MAX_SYMBOLS = 40;

const testFileOut = z.object({
  file: z.string(),
  found_by: z.array(z.enum(['naming', 'references'])).describe('naming: test_x.py, x_test.go, x.test.ts…; references: uses a top-level symbol of the file.'),
  symbols: z.array(z.string()).optional().describe('The file\'s symbols this test references.'),
});

export const getTestsForFile = defineTool({
  name: 'get_tests_for_file',
  title: 'Tests for a file',
  description: 'The test files of a source file, by naming convention and by references to its symbols.',
  group: 'build',
  input: () => ({ file_path: z.string(), ...readinessInput }),
  output: () => ({
    ...readyOutput,
    file: z.string().optional(),
    is_test_file: z.boolean().optional(),
    tests: z.array(testFileOut).optional(),
    symbols_checked: z.number().optional(),
    complete: z.boolean().optional().describe('false when the walk or the symbol list was cut short.'),
  }),
  annotations: READ_ONLY,
  async handler(args, ctx) {
    const doc = await openReadyDocument(ctx, args);
    if (isNotReady(doc)) return doc;
    const source = doc.handle.path;
    const root = ctx.workspace.rootList.find((r) => isWithin(r, source)) ?? ctx.workspace.primaryRoot ?? source;
    const found = new Map<string, { naming: boolean; symbols: Set<string> }>();
    const entry = (path: string) => {
      const known = found.get(path);
      if (known) return known;
      const fresh = { naming: false, symbols: new Set<string>() };
      found.set(path, fresh);
      return fresh;
    };

    const naming = await testsByNaming(source, root);
    for (const path of naming.files) entry(path).naming = true;

    const { conn, uri } = doc.handle;
    const symbols = conn.supports('textDocument/documentSymbol')
      ? topLevel(await ctx.workspace.query<DocumentSymbol[] | SymbolInformation[] | null>(conn, 'textDocument/documentSymbol', { textDocument: { uri } }, ctx.signal))
      : [];
    const checked = symbols.slice(0, MAX_SYMBOLS);
    if (conn.supports('textDocument/references')) {
      for (const symbol of checked) {
        const params = { textDocument: { uri }, position: symbol.position, context: { includeDeclaration: false } };
        const result = await requestLocations(conn, ctx.workspace.registry, 'textDocument/references', params, ctx.signal);
        const list = !result ? [] : Array.isArray(result) ? result : [result];
        for (const loc of list) {
          const path = uriToPath('targetUri' in loc ? loc.targetUri : loc.uri);
          if (!path || path === source || !isTestFile(path)) continue;
          entry(path).symbols.add(symbol.name);
        }
      }
    }
    const tests = [...found]
      .map(([path, e]) => ({
        file: ctx.workspace.display(path),
        found_by: [...(e.naming ? ['naming' as const] : []), ...(e.symbols.size > 0 ? ['references' as const] : [])],
        ...(e.symbols.size > 0 ? { symbols: [...e.symbols].sort(compareStrings) } : {}),
      }))
      .sort((a, b) => compareStrings(a.file, b.file));
    return {
      ready: true,
      file: doc.label,
      is_test_file: isTestFile(source),
      tests,
      symbols_checked: checked.length,
      complete: naming.complete && checked.length === symbols.length,
    };
  },
  text: (r) => {
    if (!r.ready) return notReadyText(r as NotReadyResult);
    const tests = r.tests ?? [];
    const head = `${tests.length} test file(s) for ${r.file}${r.is_test_file ? ' (itself a test file)' : ''}${r.complete === false ? ' (search cut short)' : ''}:`;
    return [head, ...tests.map((t) => `- ${t.file} [${t.found_by.join(', ')}]${t.symbols ? ` uses ${t.symbols.join(', ')}` : ''}`)].join('\n');
  },
});

/** The file's top-level symbols with the position of their names (DocumentSymbol roots, or flat symbols without a container). */
function topLevel(result: DocumentSymbol[] | SymbolInformation[] | null): { name: string; position: { line: number; character: number } }[] {
  if (!result) return [];
  return result.flatMap((s) => {
    if ('selectionRange' in s) return [{ name: s.name, position: s.selectionRange.start }];
    if (s.containerName) return [];
    return [{ name: s.name, position: s.location.range.start }];
  });
}
