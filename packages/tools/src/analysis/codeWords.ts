import type { Position } from 'vscode-languageserver-protocol';

/**
 * Where a name occurs as a whole identifier in code, outside comments and string literals: the
 * candidates for uses of a symbol that no longer exists (a server cannot be asked for references
 * to it). C-family rules (`//`, `/* *\/`, quotes, backquotes) for every language but Python (`#`,
 * quotes, triple quotes). Positions are LSP positions (UTF-16).
 */
export function wordsInCode(text: string, word: string, python: boolean): Position[] {
  const out: Position[] = [];
  const isIdentifier = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);
  let line = 0;
  let lineStart = 0;
  let i = 0;
  const skipTo = (end: number): void => {
    for (; i < end && i < text.length; i++) {
      if (text[i] === '\n') {
        line++;
        lineStart = i + 1;
      }
    }
  };
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n') {
      skipTo(i + 1);
      continue;
    }
    if (python ? c === '#' : text.startsWith('//', i)) {
      const nl = text.indexOf('\n', i);
      skipTo(nl < 0 ? text.length : nl);
      continue;
    }
    if (!python && text.startsWith('/*', i)) {
      const close = text.indexOf('*/', i + 2);
      skipTo(close < 0 ? text.length : close + 2);
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      const triple = python && text.startsWith(c.repeat(3), i) ? c.repeat(3) : undefined;
      skipTo(stringEnd(text, i, triple ?? c, python));
      continue;
    }
    if (isIdentifier(c)) {
      let end = i;
      while (isIdentifier(text[end])) end++;
      if (end - i === word.length && text.startsWith(word, i)) out.push({ line, character: i - lineStart });
      i = end;
      continue;
    }
    i++;
  }
  return out;
}

/** The offset just past the string literal opening at `start` with `quote`. */
function stringEnd(text: string, start: number, quote: string, python: boolean): number {
  // Backquotes (Go raw strings, template literals) and triple quotes span lines; others end at one.
  const multiline = quote.length === 3 || (quote === '`' && !python);
  for (let i = start + quote.length; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quote !== '`') {
      i++;
      continue;
    }
    if (c === '\n' && !multiline) return i;
    if (text.startsWith(quote, i)) return i + quote.length;
  }
  return text.length;
}
