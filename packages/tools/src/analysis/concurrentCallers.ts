import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { z } from 'zod';
import { splitLines } from '@agent-lsp/protocol';
import type { CallEntry, CallSite } from './callGraph.js';
import type { ToolContext } from '../catalog/toolDefinition.js';

/**
 * find_callers' cross_concurrent (the original agent-lsp's argument): which incoming calls run
 * concurrently with their caller, read from the text of each call site on disk. Computed for Go:
 * a call that is itself a go statement (`go h.Add()`), or that lies in a function literal started
 * as a goroutine (`go func() { … }()`) or handed to an errgroup-style `.Go(func() { … })`. A call
 * made concurrent further away (a callback a framework runs on its own goroutine, a function value
 * passed around) is not seen: the answer says what was examined, never more.
 */
export const concurrentCallerOutput = z.object({
  name: z.string().describe('The caller.'),
  file: z.string(),
  line: z.number(),
  level: z.number().describe('As in calls: 2 when the goroutine starts in a caller of a caller.'),
  via: z.string().optional(),
  call_site: z.object({ file: z.string(), line: z.number(), column: z.number() }),
  pattern: z.enum(['go statement', 'go func literal', '.Go(func literal)']).describe('How the call crosses into another goroutine.'),
});
export type ConcurrentCaller = z.infer<typeof concurrentCallerOutput>;
type Pattern = ConcurrentCaller['pattern'];

interface Frame {
  /** Set for the body of a function literal: whether it runs as a goroutine, and how. */
  func?: { pattern?: Pattern };
}

/** Go's tokens as far as this needs: words, punctuation, with comments and string/rune literals skipped. */
function* goTokens(text: string, from: number, to: number): Generator<{ at: number; token: string }> {
  let i = from;
  while (i < to) {
    const c = text[i]!;
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? to : end;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? to : end + 2;
    } else if (c === '`') {
      const end = text.indexOf('`', i + 1);
      i = end < 0 ? to : end + 1;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < to && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      i = j + 1;
    } else if (/[A-Za-z_0-9]/.test(c)) {
      let j = i + 1;
      while (j < to && /[A-Za-z_0-9]/.test(text[j]!)) j++;
      yield { at: i, token: text.slice(i, j) };
      i = j;
    } else {
      if (!/\s/.test(c)) yield { at: i, token: c };
      i++;
    }
  }
}

/**
 * How the code at `site` (an offset inside a function whose declaration starts at `start`) runs:
 * the pattern of the innermost function literal around it that runs as a goroutine, if that
 * literal is the innermost one (a call in a plain literal inside a goroutine runs when that
 * literal is called, which is not followed).
 */
export function enclosingGoroutine(text: string, start: number, site: number): Pattern | undefined {
  const stack: Frame[] = [];
  const recent: string[] = [];
  let parens = 0;
  let pending: { parens: number; pattern?: Pattern } | undefined;
  for (const { token } of goTokens(text, start, site)) {
    if (token === 'func') {
      const [a, b] = [recent.at(-1), recent.at(-2)];
      const pattern: Pattern | undefined = a === 'go' ? 'go func literal' : a === '(' && b === 'Go' ? '.Go(func literal)' : undefined;
      pending = { parens, ...(pattern ? { pattern } : {}) };
    } else if (token === '(' || token === '[') parens++;
    else if (token === ')' || token === ']') parens--;
    else if (token === '{') {
      const isBody = pending !== undefined && pending.parens === parens && recent.at(-1) !== 'interface' && recent.at(-1) !== 'struct';
      stack.push(isBody ? { func: pending?.pattern ? { pattern: pending.pattern } : {} } : {});
      if (isBody) pending = undefined;
    } else if (token === '}') stack.pop();
    recent.push(token);
    if (recent.length > 4) recent.shift();
  }
  for (let k = stack.length - 1; k >= 0; k--) {
    const f = stack[k]!.func;
    if (f) return f.pattern;
  }
  return undefined;
}

/** The offset of a 1-based line and column (lines end at \n, so CRLF files count right too). */
function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  return at + column - 1;
}

/** The concurrent incoming calls among `calls`, and notes on what was not examined. */
export function concurrentCallers(ctx: ToolContext, calls: readonly CallEntry[]): { callers: ConcurrentCaller[]; notes: string[] } {
  const callers: ConcurrentCaller[] = [];
  const notExamined = new Set<string>();
  const texts = new Map<string, string | undefined>();
  const textOf = (file: string) => {
    if (!texts.has(file)) {
      try {
        texts.set(file, readFileSync(ctx.workspace.resolveFile(file), 'utf8'));
      } catch {
        texts.set(file, undefined);
      }
    }
    return texts.get(file);
  };
  for (const entry of calls) {
    if (entry.direction !== 'incoming') continue;
    for (const site of entry.call_sites) {
      const ext = extname(site.file).toLowerCase();
      if (ext !== '.go') {
        notExamined.add(ext || site.file);
        continue;
      }
      const text = textOf(site.file);
      if (text === undefined) continue;
      const pattern = sitePattern(text, entry, site);
      if (pattern) callers.push({ name: entry.container ? `${entry.container}.${entry.name}` : entry.name, file: entry.file, line: entry.line, level: entry.level, ...(entry.via ? { via: entry.via } : {}), call_site: site, pattern });
    }
  }
  const notes = notExamined.size > 0 ? [`cross_concurrent: concurrent callers are computed for Go only (go statements, go func literals, .Go(func literals)); the call sites in ${[...notExamined].sort().join(', ')} files were not examined.`] : [];
  return { callers, notes };
}

function sitePattern(text: string, entry: CallEntry, site: CallSite): Pattern | undefined {
  const lines = splitLines(text);
  const before = (lines[site.line - 1] ?? '').slice(0, site.column - 1);
  // The call is a go statement: `go f(…)`, `go h.Add(…)`, `go pkg.F(…)`.
  if (/(^|[\s;{}])go\s+[\w.]*$/.test(before)) return 'go statement';
  if (entry.file !== site.file) return undefined;
  return enclosingGoroutine(text, offsetOf(text, entry.line, 1), offsetOf(text, site.line, site.column));
}
