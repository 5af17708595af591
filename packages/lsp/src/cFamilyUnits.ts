import { basename, extname } from 'node:path';
import { uriToPath } from '@agent-lsp/protocol';

/**
 * C-family translation units: a C or C++ file's answers (its diagnostics, its hover, its symbols)
 * come from a unit built from the file and what it includes, nothing else. A change to a source
 * file the unit does not include cannot change them; other languages' files import each other's
 * types, and a header may be included by anything, so nothing is said of those.
 */

/** Translation units' own files: nothing includes them (see `includedFiles` for the exception). */
const C_FAMILY_SOURCES: ReadonlySet<string> = new Set(['.c', '.cc', '.cpp', '.cxx', '.c++', '.m', '.mm']);
const C_FAMILY_HEADERS: ReadonlySet<string> = new Set(['.h', '.hh', '.hpp', '.hxx', '.h++', '.inc', '.ipp', '.tcc']);

const INCLUDE_LINE = /^[ \t]*#[ \t]*(?:include|include_next|import)\b(.*)$/gm;
const LITERAL_TARGET = /^\s*["<]([^">]+)[">]/;

/** The last text scanned and what it includes (a hover after a hover, a push after a push, scans nothing). */
let memo: { text: string; included: Set<string> | undefined } | undefined;

/**
 * The base names of the files `text` includes, or undefined when one include names no literal file
 * (`#include SOME_MACRO`): what it includes cannot be told from the text.
 */
function includedFiles(text: string): Set<string> | undefined {
  if (memo?.text === text) return memo.included;
  let included: Set<string> | undefined = new Set<string>();
  for (const m of text.matchAll(INCLUDE_LINE)) {
    const target = LITERAL_TARGET.exec(m[1] ?? '')?.[1];
    if (target === undefined) {
      included = undefined;
      break;
    }
    included.add(basename(target));
  }
  memo = { text, included };
  return included;
}

const extensionOf = (uri: string): string => extname(uriToPath(uri) ?? '').toLowerCase();

/**
 * Whether `uri`, whose text is `text`, is a C-family file whose unit is built from none of
 * `changed`: each of them is a C-family source it does not include (by base name, so a same-named
 * file elsewhere counts as included). Anything else (a changed header, a changed file this one
 * includes, an include that cannot be read, another language) may be part of it.
 */
export function unitBuiltWithout(changed: Iterable<string>, uri: string, text: string): boolean {
  const ext = extensionOf(uri);
  if (!C_FAMILY_SOURCES.has(ext) && !C_FAMILY_HEADERS.has(ext)) return false;
  const others = [...changed];
  if (others.includes(uri) || others.some((u) => !C_FAMILY_SOURCES.has(extensionOf(u)))) return false;
  if (others.length === 0) return true;
  const included = includedFiles(text);
  return included !== undefined && others.every((u) => !included.has(basename(uriToPath(u) ?? u)));
}
