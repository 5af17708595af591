import type { TextEdit } from 'vscode-languageserver-protocol';
import { UserError } from '@agent-lsp/protocol';
import { replaceBodyEdit, replaceLines, type SymbolSite } from './symbolEdits.js';
import { dedent, indentOf, reindent } from './symbolText.js';

/**
 * What replace_symbol_body was given: the whole new definition (signature included, as the
 * original agent-lsp and Serena take it) or only the body (the signature kept).
 */
export type NewBodyKind = 'definition' | 'body';

const PYTHON_HEAD = /^(?:async\s+def|def|class)\s+([A-Za-z_]\w*)/;
/** Words that start a declaration in the brace languages (a body's first statement is none of them). */
const DECLARATION_WORDS = new Set(['function', 'func', 'fn', 'fun', 'class', 'interface', 'struct', 'enum', 'def', 'export', 'public', 'private', 'protected', 'static', 'async', 'pub', 'impl', 'void', 'override', 'abstract', 'inline']);

/** Leading decorators, comments and blank lines: what comes before a definition's head. */
function isPreamble(line: string): boolean {
  const t = line.trim();
  return t === '' || t.startsWith('@') || t.startsWith('#') || t.startsWith('//') || t.startsWith('/*') || t.startsWith('*');
}

function firstWord(line: string): string {
  return /^[\w$]+/.exec(line.trim())?.[0] ?? '';
}

function namesWord(line: string, name: string): boolean {
  return line.split(/[^\w$]+/).includes(name);
}

/**
 * Whether `newText` is a whole definition of the symbol named `name` whose site is `site`, or a
 * body. A text that starts a definition of another name is refused: taking it as a body would
 * write a nested definition, taking it as the definition would rename the symbol.
 */
export function classifyNewBody(site: SymbolSite, name: string, newText: string): NewBodyKind {
  const lines = dedent(newText);
  const head = lines.find((l) => !isPreamble(l))?.trim() ?? '';
  if (site.family === 'python') {
    const declared = PYTHON_HEAD.exec(head)?.[1];
    if (declared === undefined) return 'body';
    if (declared === name) return 'definition';
    throw otherDefinition(name, declared);
  }
  const header = site.lines[site.selectionRange.start.line] ?? '';
  const word = firstWord(head);
  const endsBlock = /\}\s*;?\s*$/.test(newText.trim());
  if (word !== '' && word === firstWord(header) && namesWord(head, name) && endsBlock) return 'definition';
  if (DECLARATION_WORDS.has(word) && endsBlock && /\(|\{/.test(head)) {
    const other = head.split(/[^\w$]+/).find((w) => w !== '' && !DECLARATION_WORDS.has(w));
    throw otherDefinition(name, other ?? head.slice(0, 40));
  }
  return 'body';
}

function otherDefinition(name: string, declared: string): UserError {
  return new UserError(
    'invalid_argument',
    `new_body starts a definition of ${declared}, not of ${name}: pass the whole new definition of ${name} (signature included), or only its body. Nothing was changed.`,
  );
}

/**
 * The edit for replace_symbol_body: a whole definition replaces the symbol from its header line
 * (from its decorators and doc comment when the new text brings its own) to its last line,
 * re-indented to the symbol's level; a body replaces what follows the signature.
 */
export function symbolBodyEdit(site: SymbolSite, name: string, newText: string): { edit: TextEdit; took: NewBodyKind } {
  const took = classifyNewBody(site, name, newText);
  if (took === 'body') return { edit: replaceBodyEdit(site, newText), took };
  const ownPreamble = isPreamble(dedent(newText)[0] ?? '');
  const from = ownPreamble ? site.extent.start : site.selectionRange.start.line;
  const to = site.range.end.line + 1;
  return { edit: replaceLines(site.lines, site.eol, from, to, reindent(newText, indentOf(site.lines[from] ?? ''))), took };
}
