import type { Position } from 'vscode-languageserver-protocol';

/**
 * Reading the bases out of a class head, in the text between a type's name and its body:
 * `class Square(Rectangle):` (Python), `class Shape extends Base<T> implements HasArea {`
 * (TypeScript, Java), `struct Circle final : public Shape {` (C++). Only what derived type
 * hierarchies need when a server has none of its own: each base's last identifier and where it is.
 */

export interface BaseName {
  name: string;
  /** UTF-16 offset in the file text, as LSP counts. */
  offset: number;
}

export interface ClassHead {
  /** Offset just past the head (the body starts after it). */
  end: number;
  bases: BaseName[];
}

const OPEN = '([<{';
const CLOSE = ')]>}';
const MAX_HEAD = 4000;
const IDENTIFIER = /[A-Za-z_$][\w$]*/g;
const NOT_A_BASE = new Set(['public', 'private', 'protected', 'virtual', 'final', 'extends', 'implements']);

export function offsetAt(text: string, p: Position): number {
  let offset = 0;
  for (let line = 0; line < p.line; line++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  return Math.min(offset + p.character, text.length);
}

export function positionAt(text: string, offset: number): Position {
  let line = 0;
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    start = nl + 1;
  }
  return { line, character: offset - start };
}

/** Splits text at top-level commas; each part keeps its offset. */
function splitTopLevel(text: string, base: number): { part: string; offset: number }[] {
  const parts: { part: string; offset: number }[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text[i];
    if (c === '>' && text[i - 1] === '=') continue; // an arrow, not a closing bracket
    if (c !== undefined && OPEN.includes(c)) depth++;
    else if (c !== undefined && CLOSE.includes(c)) depth--;
    if (i === text.length || (c === ',' && depth === 0)) {
      parts.push({ part: text.slice(start, i), offset: base + start });
      start = i + 1;
    }
  }
  return parts;
}

/** The identifier a base expression names: `typing.Protocol` → Protocol, `Base<T>` → Base. */
function baseName(part: string, offset: number): BaseName | undefined {
  const cut = part.search(/[<[(]/);
  const head = cut >= 0 ? part.slice(0, cut) : part;
  if (head.includes('=')) return undefined; // metaclass=..., keyword arguments
  let last: BaseName | undefined;
  for (const m of head.matchAll(IDENTIFIER)) {
    if (NOT_A_BASE.has(m[0])) continue;
    last = { name: m[0], offset: offset + (m.index ?? 0) };
  }
  return last;
}

function pythonHead(text: string, from: number): ClassHead {
  let i = from;
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  if (text[i] === '[') i = matching(text, i) + 1; // class C[T](Base): type parameters (3.12)
  if (text[i] !== '(') return { end: text.indexOf(':', i) + 1 || i, bases: [] };
  const close = matching(text, i);
  const bases = splitTopLevel(text.slice(i + 1, close), i + 1).map((p) => baseName(p.part, p.offset)).filter((b): b is BaseName => b !== undefined);
  return { end: close + 1, bases };
}

/**
 * The head of a brace language's type: up to its body at bracket depth 0. Only depth-0 `extends` /
 * `implements` (or a C++ `:`) start the base list: `class Box<T extends Item>` has no base, and
 * `interface F extends Fn<Observable<T>>` has Fn alone, its type arguments being uses, not bases.
 */
function braceHead(text: string, from: number): ClassHead {
  let depth = 0;
  let end = from;
  const limit = Math.min(text.length, from + MAX_HEAD);
  // Each depth-0 base list: where its keyword (or colon) is, and where its names start.
  const lists: { keyword: number; start: number }[] = [];
  for (; end < limit; end++) {
    const c = text[end] as string;
    if (c === '=' && text[end + 1] === '>') {
      end++; // an arrow in a function type, not a closing bracket
      continue;
    }
    if (depth === 0 && (c === '{' || c === ';')) break;
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) depth--;
    else if (depth > 0) continue;
    else if (c === ':' && text[end - 1] !== ':' && text[end + 1] !== ':') lists.push({ keyword: end, start: end + 1 });
    else if (!/[\w$]/.test(text[end - 1] ?? ' ')) {
      const word = /^(?:extends|implements)(?![\w$])/.exec(text.slice(end, end + 11));
      if (word) {
        lists.push({ keyword: end, start: end + word[0].length });
        end += word[0].length - 1;
      }
    }
  }
  const bases: BaseName[] = [];
  lists.forEach(({ start }, k) => {
    const stop = lists[k + 1]?.keyword ?? end;
    for (const p of splitTopLevel(text.slice(start, stop), start)) {
      const b = baseName(p.part, p.offset);
      if (b) bases.push(b);
    }
  });
  return { end, bases };
}

function matching(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length && i < open + MAX_HEAD; i++) {
    const c = text[i] as string;
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c) && --depth === 0) return i;
  }
  return open;
}

/** The head of the type whose name ends at `nameEnd` (an LSP position) in `text`. */
export function classHead(text: string, nameEnd: Position, python: boolean): ClassHead {
  const from = offsetAt(text, nameEnd);
  return python ? pythonHead(text, from) : braceHead(text, from);
}

const TS_LIKE = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.java']);

/**
 * Whether the name at `offset` can be a base in a class head at all, from the token before it
 * (past a qualifier such as `rx.`): `extends`/`implements` or a comma in TypeScript and Java, `(` or
 * a comma in Python, and also `:` and access specifiers elsewhere (C++). A cheap test that never
 * says no to a base classHead would read, so most uses are set aside without their file's symbols.
 */
export function mayBeBase(text: string, offset: number, ext: string): boolean {
  let i = offset;
  // Past a qualifier: `ns.Base`, `typing.Protocol`, `ns::Base`.
  for (;;) {
    let j = i;
    while (j > 0 && /\s/.test(text[j - 1] as string)) j--;
    if (text[j - 1] === '.' || (text[j - 1] === ':' && text[j - 2] === ':')) {
      j -= text[j - 1] === '.' ? 1 : 2;
      while (j > 0 && /\s/.test(text[j - 1] as string)) j--;
      while (j > 0 && /[\w$]/.test(text[j - 1] as string)) j--;
      i = j;
      continue;
    }
    i = j;
    break;
  }
  const before = text[i - 1];
  if (before === ',') return true;
  const word = /[\w$]+$/.exec(text.slice(Math.max(0, i - 12), i))?.[0];
  const python = ext === '.py' || ext === '.pyi';
  if (python) return before === '(';
  if (word === 'extends' || word === 'implements') return true;
  if (TS_LIKE.has(ext)) return false;
  return before === '(' || before === ':' || ['public', 'private', 'protected', 'virtual'].includes(word ?? '');
}
