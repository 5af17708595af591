import { createHash } from 'node:crypto';
import { UserError } from '@agent-lsp/protocol';

/** What replace_in_files looks for and puts instead. */
export interface TextQuery {
  needle: string;
  repl: string;
  mode: 'literal' | 'regex';
}

/** One match of the needle in one file. */
export interface Occurrence {
  /** `<file>:<nth>@<hash>`: stable while the file's text and the query stay the same. */
  id: string;
  file: string;
  /** UTF-16 offsets of the match in the file's text. */
  start: number;
  end: number;
  /** Its replacement (a regex's groups expanded). */
  replacement: string;
  /** 1-based line and column (in characters) of the match's start. */
  line: number;
  column: number;
  old_line: string;
  new_line: string;
}

/** Past this many matches in all, a replacement is refused: nobody means ten thousand edits blind. */
export const MAX_OCCURRENCES = 10_000;

/** The fingerprint in an occurrence id: the file's text with the query, so either changing makes the id stale. */
export function textFingerprint(text: string, q: TextQuery): string {
  return createHash('sha256').update(text).update('\0').update(q.needle).update('\0').update(q.mode).update('\0').update(q.repl).digest('hex').slice(0, 16);
}

/** The query's regular expression (global, multiline for ^ and $ per line), or a clear error. */
export function queryPattern(q: TextQuery): RegExp {
  if (q.mode === 'literal') return new RegExp(q.needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g');
  try {
    return new RegExp(q.needle, 'gm');
  } catch (err) {
    throw new UserError('invalid_argument', `needle is not a valid regular expression: ${(err as Error).message}. Nothing was changed.`);
  }
}

/**
 * A regex replacement for one match: $1 or ${1}, $<name> or ${name}, $& and $$ (both JavaScript's
 * and the original agent-lsp's Go forms). A literal replacement is taken as written.
 */
export function expandReplacement(repl: string, match: RegExpExecArray, mode: TextQuery['mode']): string {
  if (mode === 'literal') return repl;
  return repl.replace(/\$(\$|&|\d{1,2}|<(\w+)>|\{(\w+)\})/g, (_whole, token: string, angled?: string, braced?: string) => {
    if (token === '$') return '$';
    if (token === '&') return match[0];
    const name = angled ?? braced ?? token;
    if (/^\d+$/.test(name)) return match[Number(name)] ?? '';
    return match.groups?.[name] ?? '';
  });
}

/** Every non-empty, non-overlapping match of the query in `text` (a file's), with `budget` the most to collect. */
export function findOccurrences(file: string, text: string, q: TextQuery, pattern: RegExp, budget: number): { occurrences: Occurrence[]; overflow: boolean } {
  const fingerprint = textFingerprint(text, q);
  const occurrences: Occurrence[] = [];
  // Lines counted once, forward: matches come in order.
  let line = 1;
  let counted = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (m[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    if (occurrences.length === budget) return { occurrences, overflow: true };
    const replacement = expandReplacement(q.repl, m, q.mode);
    const lineStart = text.lastIndexOf('\n', m.index - 1) + 1;
    const lineEnd = (text.indexOf('\n', m.index) + 1 || text.length + 1) - 1;
    const oldLine = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const inLine = m.index - lineStart;
    const matchEndInLine = Math.min(inLine + m[0].length, oldLine.length);
    for (let i = text.indexOf('\n', counted); i !== -1 && i < lineStart; i = text.indexOf('\n', i + 1)) line++;
    counted = lineStart;
    occurrences.push({
      id: `${file}:${occurrences.length}@${fingerprint}`,
      file,
      start: m.index,
      end: m.index + m[0].length,
      replacement,
      line,
      column: [...text.slice(lineStart, m.index)].length + 1,
      old_line: oldLine,
      new_line: oldLine.slice(0, inLine) + replacement + oldLine.slice(matchEndInLine),
    });
  }
  return { occurrences, overflow: false };
}

/** `text` with the given occurrences (all of this text, any order) replaced. */
export function replaceOccurrences(text: string, occurrences: readonly Occurrence[]): string {
  let out = text;
  for (const o of [...occurrences].sort((a, b) => b.start - a.start)) out = out.slice(0, o.start) + o.replacement + out.slice(o.end);
  return out;
}
