// Field cases of insert_before_symbol and insert_after_symbol: code inserted next to a real symbol
// must be a pure insertion (every line of the file kept, in order), at the symbol's edge as the
// server's document symbol spans it (above its doc comment and decorators, or below its last
// line), separated from it by blank lines only, re-indented to its level; the server asked
// directly then outlines the new symbol beside it (the same container), and the CLI checker finds
// no error the insertion introduced. Every file a case changes is restored.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ok } from '../helpers/mcpClient.js';
import type { Checker } from './fieldCheckers.js';
import { compareSets, type Outcome } from './fieldOutcome.js';
import { cursor, describeTarget, type FieldContext, type FieldSpec, type Target } from './fieldSuite.js';
import { preambleStart } from './fieldSymbolCases.js';
import type { RawDocumentSymbol } from './rawServer.js';

type Recorder = (tool: string, label: string, result: { outcome: Outcome; detail?: string }) => void;

/** `code` (declaring `name`, written at indentation zero) inserted on `side` of the symbol named at the target. */
export type SymbolInsertion = Target & { side: 'before' | 'after'; code: string; name: string; checker: Checker };

/** Each symbol with the chain of names of the symbols holding it. */
function flatten(list: readonly RawDocumentSymbol[], container = ''): { symbol: RawDocumentSymbol; container: string }[] {
  return list.flatMap((s) => [{ symbol: s, container }, ...flatten(s.children ?? [], `${container}/${s.name}`)]);
}

export function insertCases(ctx: FieldContext, spec: FieldSpec, record: Recorder): void {
  const outline = async (file: string) => {
    await ctx.raw.open(file, spec.languageId);
    return flatten((await ctx.raw.request<RawDocumentSymbol[] | null>('textDocument/documentSymbol', { textDocument: { uri: ctx.raw.uri(file) } })) ?? []);
  };

  it.each(spec.inserts ?? [])('insert_*_symbol ($side) at $file "$needle" inserts exactly the code at the server\'s edge of the symbol', async (target) => {
    const path = join(ctx.corpus.root, target.file);
    const original = readFileSync(path, 'utf8');
    try {
      const at = cursor(ctx.corpus.root, target);
      const p = ctx.raw.lspPosition(target.file, at);
      const [named] = (await outline(target.file)).filter(({ symbol: s }) => s.selectionRange.start.line === p.line && s.selectionRange.start.character <= p.character && p.character <= s.selectionRange.end.character);
      expect(named, 'the server outlines a symbol named there').toBeDefined();
      const { symbol, container } = named!;
      const lines = original.split('\n');
      const indent = /^[ \t]*/.exec(lines[symbol.range.start.line]!)![0];
      const code = target.code.split('\n').map((l) => (l === '' ? '' : indent + l));
      const before = target.checker(ctx.corpus.root, target.file);

      const data = ok(await ctx.agent.call(`insert_${target.side}_symbol`, { file_path: target.file, ...at, code: target.code, ready_timeout_seconds: 240 }));
      const ours = readFileSync(path, 'utf8').split('\n');
      // Where the inserted lines are: the longest common head and tail of the two texts.
      let head = 0;
      while (head < lines.length && lines[head] === ours[head]) head++;
      const block = ours.slice(head, head + ours.length - lines.length);
      const pure = ours.length > lines.length && ours.slice(head + block.length).join('\n') === lines.slice(head).join('\n');
      const edge = target.side === 'after' ? symbol.range.end.line + 1 : preambleStart(lines, symbol.range.start.line);
      // Blank lines between the code and the symbol may sit on either side of the block (the
      // blanks already there are shared): only the code's own lines and where they are count.
      const first = block.findIndex((l) => l.trim() !== '');
      const last = block.length - 1 - [...block].reverse().findIndex((l) => l.trim() !== '');
      const gap = target.side === 'after' ? lines.slice(edge, head).concat(block.slice(0, first)) : block.slice(last + 1).concat(lines.slice(head, edge));
      const shape = [
        `pure insertion: ${pure}`,
        `code: ${JSON.stringify(block.slice(first, last + 1))}`,
        `blank lines only between it and the symbol: ${gap.length > 0 && gap.every((l) => l.trim() === '')}`,
      ];
      const truth = [`pure insertion: true`, `code: ${JSON.stringify(code)}`, 'blank lines only between it and the symbol: true'];
      // The server outlines the new symbol in the symbol's container, and nothing new is wrong.
      const beside = (await outline(target.file)).some((s) => s.symbol.name === target.name && s.container === container);
      // The checker's errors with lines below the block moved back up: those the file did not have.
      const moved = target.checker(ctx.corpus.root, target.file).map((k) => {
        const [line, column] = k.split(':').map(Number) as [number, number];
        return line <= head ? k : line > head + block.length ? `${line - block.length}:${column}` : `new ${k}`;
      });
      const introduced = moved.filter((k) => !before.includes(k));
      shape.push(`outlined beside it: ${beside}`, `errors introduced: ${JSON.stringify(introduced)}`);
      truth.push('outlined beside it: true', 'errors introduced: []');
      record(`insert_${target.side}_symbol`, describeTarget(target), compareSets(shape, truth, data['ready'] !== false));
    } finally {
      writeFileSync(path, original);
      await ctx.raw.open(target.file, spec.languageId);
    }
  });
}
