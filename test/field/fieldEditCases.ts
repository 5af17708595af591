// Field cases of the tools that edit code: safe_delete_symbol (a symbol used elsewhere is refused,
// its references counted as the server counts them; an unused one loses exactly its lines),
// replace_symbol_body (exactly the body the server's document symbol spans is replaced) and
// suggest_fixes + apply_fix (the server's own code actions for a planted error, and the file its
// edit gives). The truth is the same server asked directly (rawServer.ts) and the edit computed
// from its answer here, with the CLI checker on the result. Every file a case changes is restored.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ok } from '../helpers/mcpClient.js';
import type { Checker } from './fieldCheckers.js';
import { compareSets, type Outcome } from './fieldOutcome.js';
import { claimsComplete, cursor, describeTarget, locationKeys, type FieldContext, type FieldSpec, type Target } from './fieldSuite.js';
import { preambleStart } from './fieldSymbolCases.js';
import type { FieldLocation, LspRange, RawDiagnostic, RawDocumentSymbol } from './rawServer.js';

type RecordFn = (tool: string, label: string, result: { outcome: Outcome; detail?: string }) => void;
type Judged = { outcome: Outcome; detail?: string };

/** An unused symbol planted in a real file: `planted` (doc comment and declaration of `name`) goes above the line starting `before`, which a blank line precedes. */
export interface PlantedSymbol {
  file: string;
  before: string;
  planted: string;
  name: string;
  checker: Checker;
}

/** A symbol's body replaced by `body`, indented as the file indents that body. */
export type BodyReplacement = Target & { body: string; checker: Checker };

/** A line with an error the server has a quick fix for, appended to `file`; `needle` is the wrong name in it. */
export interface PlantedFix {
  file: string;
  planted: string;
  needle: string;
  checker: Checker;
}

interface RawAction {
  title: string;
  kind?: string;
  isPreferred?: boolean;
  disabled?: unknown;
  command?: unknown;
  data?: unknown;
  edit?: { changes?: { [uri: string]: RawEdit[] }; documentChanges?: { textDocument?: { uri: string }; edits?: RawEdit[] }[] };
}
interface RawEdit {
  range: LspRange;
  newText: string;
}

/** The string offset of an LSP position (UTF-16, as JavaScript strings count) in LF text. */
function offsetOf(text: string, p: LspRange['start']): number {
  let offset = 0;
  for (let line = 0; line < p.line; line++) offset = text.indexOf('\n', offset) + 1;
  return offset + p.character;
}

/** LSP text edits applied to `text` as LSP orders them: all on the original text, from the end. */
function applyEdits(text: string, edits: readonly RawEdit[]): string {
  const ordered = edits.map((e, i) => ({ e, i, at: offsetOf(text, e.range.start) })).sort((a, b) => b.at - a.at || b.i - a.i);
  let out = text;
  for (const { e, at } of ordered) out = out.slice(0, at) + e.newText + out.slice(offsetOf(text, e.range.end));
  return out;
}

/** The first line that differs, for a wrong answer's detail. */
function textOutcome(ours: string, truth: string): Judged {
  if (ours === truth) return { outcome: 'exact' };
  const a = ours.split('\n');
  const b = truth.split('\n');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return { outcome: 'wrong', detail: `the file differs from line ${i + 1}: ours ${JSON.stringify(a.slice(i, i + 3))}, truth ${JSON.stringify(b.slice(i, i + 3))}` };
}

/** Several judgements of one case: the worst wins, with every detail. */
function worst(...parts: Judged[]): Judged {
  const outcome = parts.some((p) => p.outcome === 'wrong') ? 'wrong' : parts.some((p) => p.outcome === 'partial-labelled') ? 'partial-labelled' : 'exact';
  const details = parts.flatMap((p) => (p.detail ? [p.detail] : []));
  return details.length ? { outcome, detail: details.join('; ') } : { outcome };
}

/**
 * The checker's errors on `newText` (`line:column` keys) that `oldText` did not have at the same
 * place: lines above and below the changed ones are mapped back across the change. Corpus files
 * have errors of their own (Django's text.py has three for pyright's CLI), which are not new.
 */
function newErrors(oldText: string, newText: string, before: readonly string[], after: readonly string[]): string[] {
  const a = oldText.split('\n');
  const b = newText.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const had = new Set(before);
  return after.filter((key) => {
    const [line, column] = key.split(':').map(Number) as [number, number];
    const old = line <= head ? line : line > b.length - tail ? line - (b.length - a.length) : undefined;
    return old === undefined || !had.has(`${old}:${column}`);
  });
}

/**
 * The text with a symbol's body replaced: brace languages, from the brace that ends the
 * signature's line to the brace that ends the server's range (both kept); Python, the lines after
 * the header's line (the first from the name on that ends with a colon) to the range's end.
 */
function bodyReplaced(text: string, symbol: RawDocumentSymbol, body: string, python: boolean): string {
  const end = offsetOf(text, symbol.range.end);
  if (python) {
    const header = text.slice(offsetOf(text, symbol.selectionRange.end)).search(/:[ \t]*\n/) + offsetOf(text, symbol.selectionRange.end);
    const from = text.indexOf('\n', header);
    expect(from, 'the header ends with a colon before the body').toBeLessThan(end);
    return `${text.slice(0, from)}\n${body}${text.slice(end)}`;
  }
  const open = text.indexOf('{\n', offsetOf(text, symbol.selectionRange.end));
  const close = end - 1;
  expect(text[close], 'the symbol ends with its body\'s brace').toBe('}');
  expect(open, 'the signature ends with a brace').toBeGreaterThan(0);
  expect(open, 'the body opens before it closes').toBeLessThan(close);
  return `${text.slice(0, open + 1)}\n${body}\n${text.slice(close)}`;
}

export function editCases(ctx: FieldContext, spec: FieldSpec, record: RecordFn): void {
  const root = () => ctx.corpus.root;
  const lang = spec.languageId;

  /** The server's document symbols of a file, flattened. */
  const rawSymbols = async (file: string): Promise<RawDocumentSymbol[]> => {
    await ctx.raw.open(file, lang);
    const all: RawDocumentSymbol[] = [];
    const walk = (list: RawDocumentSymbol[]): void => list.forEach((s) => (all.push(s), walk(s.children ?? [])));
    walk((await ctx.raw.request<RawDocumentSymbol[] | null>('textDocument/documentSymbol', { textDocument: { uri: ctx.raw.uri(file) } })) ?? []);
    return all;
  };
  /** The symbol whose name is at 1-based `line`, `column` (its selection range holds it). */
  const symbolAt = async (file: string, at: { line: number; column: number }): Promise<RawDocumentSymbol> => {
    const p = ctx.raw.lspPosition(file, at);
    const found = (await rawSymbols(file)).filter((s) => s.selectionRange.start.line === p.line && s.selectionRange.start.character <= p.character && p.character <= s.selectionRange.end.character);
    expect(found.length, `the server has one symbol named at ${file}:${at.line}:${at.column}`).toBe(1);
    return found[0]!;
  };
  const errorKeys = (data: Record<string, unknown>): string[] => ((data['errors_after'] as FieldLocation[] | undefined) ?? []).map((d) => `${d.line}:${d.column}`);

  it.each(spec.deleteReferenced ?? [])('safe_delete_symbol of $file "$needle" (used elsewhere) refuses and counts the server\'s references', async (target) => {
    const path = join(root(), target.file);
    const before = readFileSync(path);
    const at = cursor(root(), target);
    const symbol = await symbolAt(target.file, at);
    // Uses inside the symbol's own lines (a recursive call, its doc comment) do not keep it alive.
    const own = { from: preambleStart(before.toString('utf8').split('\n'), symbol.range.start.line) + 1, to: symbol.range.end.line + 1 };
    const uses = (await ctx.raw.locations('textDocument/references', target.file, at, { context: { includeDeclaration: false } })).filter(
      (l) => !(l.file === target.file && l.line >= own.from && l.line <= own.to),
    );
    expect(uses.length, 'the server finds uses elsewhere').toBeGreaterThan(0);
    expect(uses.length, 'all of them fit in the answer (its first 100)').toBeLessThanOrEqual(100);
    try {
      const data = ok(await ctx.agent.call('safe_delete_symbol', { file_path: target.file, ...at, ready_timeout_seconds: 240 }));
      const unchanged = readFileSync(path).equals(before);
      const refs = compareSets(locationKeys(root(), (data['references'] as FieldLocation[] | undefined) ?? []), locationKeys(root(), uses), claimsComplete(data));
      const refused: Judged =
        data['refused'] === true && unchanged && data['references_total'] === uses.length
          ? { outcome: 'exact' }
          : data['ready'] === false && unchanged
            ? { outcome: 'partial-labelled', detail: 'not ready, nothing written' }
            : { outcome: 'wrong', detail: `refused ${String(data['refused'])}, file unchanged ${unchanged}, references_total ${String(data['references_total'])} for the server's ${uses.length}` };
      record('safe_delete_symbol', `${describeTarget(target)}, used elsewhere`, worst(refused, refs));
    } finally {
      if (!readFileSync(path).equals(before)) writeFileSync(path, before);
    }
  });

  it.each(spec.deleteUnused ?? [])('safe_delete_symbol of an unused $name planted in $file deletes exactly its lines', async ({ file, before, planted, name, checker }) => {
    const path = join(root(), file);
    const original = readFileSync(path, 'utf8');
    const at = original.indexOf(`\n\n${before}`) + 2;
    expect(at, `a blank line precedes "${before}"`).toBeGreaterThan(1);
    const text = `${original.slice(0, at)}${planted}\n\n${original.slice(at)}`;
    try {
      writeFileSync(path, text);
      const lines = text.split('\n');
      const symbol = (await rawSymbols(file)).find((s) => s.name === name);
      expect(symbol, `the server outlines ${name}`).toBeDefined();
      const position = { line: symbol!.selectionRange.start.line + 1, column: symbol!.selectionRange.start.character + 1 };
      const uses = await ctx.raw.locations('textDocument/references', file, position, { context: { includeDeclaration: false } });
      expect(uses, 'the server finds no use of it').toEqual([]);
      // Its lines per the server (the doc comment above them with them) go, and the blank lines
      // around them close up to one.
      const from = preambleStart(lines, symbol!.range.start.line);
      expect(lines[symbol!.range.end.line + 1], 'a blank line follows it').toBe('');
      const truth = [...lines.slice(0, from), ...lines.slice(symbol!.range.end.line + 2)].join('\n');
      expect(truth, 'the server spans exactly the planted lines').toBe(original);
      const before = checker(root(), file);
      const data = ok(await ctx.agent.call('safe_delete_symbol', { file_path: file, ...position, ready_timeout_seconds: 240 }));
      const ours = readFileSync(path, 'utf8');
      const errors = newErrors(text, ours, before, checker(root(), file));
      const written = data['ready'] === false && ours === text ? { outcome: 'partial-labelled' as const, detail: 'not ready, nothing written' } : textOutcome(ours, truth);
      record('safe_delete_symbol', `${file} + an unused ${name}`, worst(written, compareSets(errorKeys(data), errors, true)));
    } finally {
      writeFileSync(path, original);
      await ctx.raw.open(file, lang);
    }
  });

  it.each(spec.replaceBodies ?? [])('replace_symbol_body of $file "$needle" replaces exactly the server\'s body range', async (target) => {
    const path = join(root(), target.file);
    const original = readFileSync(path, 'utf8');
    try {
      const at = cursor(root(), target);
      const symbol = await symbolAt(target.file, at);
      const truth = bodyReplaced(original, symbol, target.body, lang === 'python');
      const before = target.checker(root(), target.file);
      const data = ok(await ctx.agent.call('replace_symbol_body', { file_path: target.file, ...at, new_body: target.body, ready_timeout_seconds: 240 }));
      const ours = readFileSync(path, 'utf8');
      const errors = newErrors(original, ours, before, target.checker(root(), target.file));
      const written = data['ready'] === false && ours === original ? { outcome: 'partial-labelled' as const, detail: 'not ready, nothing written' } : textOutcome(ours, truth);
      record('replace_symbol_body', describeTarget(target), worst(written, compareSets(errorKeys(data), errors, true)));
    } finally {
      writeFileSync(path, original);
      await ctx.raw.open(target.file, lang);
    }
  });

  it.each(spec.fixes ?? [])('suggest_fixes and apply_fix at "$needle" planted in $file are the server\'s own actions and edit', async ({ file, planted, needle, checker }) => {
    const path = join(root(), file);
    const original = readFileSync(path, 'utf8');
    const text = `${original.replace(/\n?$/, '\n')}${planted}\n`;
    const before = checker(root(), file);
    try {
      writeFileSync(path, text);
      await ctx.raw.open(file, lang);
      // The needle on the planted line (the file's last), not an occurrence of it above.
      const at = { line: text.split('\n').length - 1, column: [...planted.slice(0, planted.indexOf(needle))].length + 1 };
      expect(planted.includes(needle), 'the needle is in the planted line').toBe(true);
      const start = ctx.raw.lspPosition(file, { line: at.line, column: at.column });
      const range = { start, end: { line: start.line, character: start.character + needle.length } };
      const overlapping = (d: RawDiagnostic) => d.range.start.line <= range.end.line && d.range.end.line >= range.start.line;
      const diagnostics = (await ctx.raw.diagnostics(file)).filter(overlapping);
      expect(diagnostics.length, 'the server reports the planted error').toBeGreaterThan(0);
      const ask = { textDocument: { uri: ctx.raw.uri(file) }, range, context: { diagnostics, triggerKind: 1 } };
      // Disabled actions are ones the server says do not apply there.
      const actions = ((await ctx.raw.request<RawAction[] | null>('textDocument/codeAction', ask)) ?? []).filter((a) => !a.disabled);
      const fixes = actions.filter((a) => a.kind === 'quickfix');
      const chosen = fixes.find((a) => a.isPreferred) ?? (fixes.length === 1 ? fixes[0] : undefined);
      expect(chosen, `the server offers one quick fix, or prefers one: ${JSON.stringify(actions.map((a) => a.title))}`).toBeDefined();

      const listed = ok(await ctx.agent.call('suggest_fixes', { file_path: file, start_line: at.line, start_column: at.column, end_line: at.line, end_column: at.column + needle.length, ready_timeout_seconds: 240 }));
      const offered = (listed['actions'] as { action_id: string; title: string }[] | undefined) ?? [];
      record('suggest_fixes', `${file} + "${needle}"`, compareSets(offered.map((a) => a.title), actions.map((a) => a.title), claimsComplete(listed)));

      const full = chosen!.edit === undefined && chosen!.data !== undefined ? await ctx.raw.request<RawAction>('codeAction/resolve', chosen!) : chosen!;
      const uri = ctx.raw.uri(file);
      const edits = [...(full.edit?.changes?.[uri] ?? []), ...(full.edit?.documentChanges ?? []).filter((c) => c.textDocument?.uri === uri).flatMap((c) => c.edits ?? [])];
      expect(edits.length, `"${chosen!.title}" edits the file`).toBeGreaterThan(0);
      const truth = applyEdits(text, edits);
      const id = offered.find((a) => a.title === chosen!.title)?.action_id;
      let applied: Judged = { outcome: 'wrong', detail: `suggest_fixes did not offer "${chosen!.title}"` };
      if (id !== undefined) {
        const data = ok(await ctx.agent.call('apply_fix', { action_id: id }));
        const ours = readFileSync(path, 'utf8');
        const errors = newErrors(original, ours, before, checker(root(), file));
        const fixed: Judged = errors.length === 0 ? { outcome: 'exact' } : { outcome: 'wrong', detail: `the checker still finds ${JSON.stringify(errors)}` };
        applied = data['ready'] === false && ours === text ? { outcome: 'partial-labelled', detail: 'not ready, nothing written' } : worst(textOutcome(ours, truth), fixed);
      }
      record('apply_fix', `${file} + "${needle}", "${chosen!.title}"`, applied);
    } finally {
      writeFileSync(path, original);
      await ctx.raw.open(file, lang);
    }
  });
}
