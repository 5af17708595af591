import { cpSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES } from '../helpers/paths.js';

/** A private copy of a fixture (plus extra files) under the temp dir, and its removal. */
export function copyFixture(name: string, extra: Record<string, string> = {}): { root: string; remove(): void } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), `agent-lsp-nav2-${name}-`)));
  cpSync(join(FIXTURES, name), root, { recursive: true });
  for (const [file, text] of Object.entries(extra)) writeFileSync(join(root, file), text);
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** 1-based line and character column of `needle` on line `line` of `text` (the n-th occurrence on it). */
export function at(text: string, line: number, needle: string, nth = 1): { line: number; column: number } {
  const lineText = text.split('\n')[line - 1] ?? '';
  let index = -1;
  for (let i = 0; i < nth; i++) index = lineText.indexOf(needle, index + 1);
  if (index < 0) throw new Error(`${needle} not on line ${line}`);
  return { line, column: [...lineText.slice(0, index)].length + 1 };
}

/** The range `needle` covers at that place, as agent-lsp reports ranges (end exclusive). */
export function span(text: string, line: number, needle: string, nth = 1) {
  const p = at(text, line, needle, nth);
  return { line: p.line, column: p.column, end_line: p.line, end_column: p.column + [...needle].length };
}
