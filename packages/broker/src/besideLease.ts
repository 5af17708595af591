import { basename, extname } from 'node:path';
import { uriToPath } from '@agent-lsp/protocol';

/**
 * Reads of one document whose answer comes from that document's own syntax tree (and the files it
 * includes): they may go to the server beside another client's exclusive section when the section
 * changed nothing that tree is built from (see `readableBesideLease`). Workspace-wide requests
 * (references, definitions across files, completion, symbols) read the server's index, which holds
 * the section's text: they wait for its end as before.
 */
export const BESIDE_LEASE_METHODS: ReadonlySet<string> = new Set([
  'textDocument/hover',
  'textDocument/documentSymbol',
  'textDocument/documentHighlight',
  'textDocument/foldingRange',
  'textDocument/selectionRange',
  'textDocument/semanticTokens/full',
  'textDocument/semanticTokens/full/delta',
  'textDocument/semanticTokens/range',
  'textDocument/inlayHint',
  'textDocument/documentLink',
]);

/** C-family translation units' own files: nothing includes them (see `includedFiles` for the exception). */
const C_FAMILY_SOURCES: ReadonlySet<string> = new Set(['.c', '.cc', '.cpp', '.cxx', '.c++', '.m', '.mm']);
const C_FAMILY_HEADERS: ReadonlySet<string> = new Set(['.h', '.hh', '.hpp', '.hxx', '.h++', '.inc', '.ipp', '.tcc']);

const INCLUDE_LINE = /^[ \t]*#[ \t]*(?:include|include_next|import)\b(.*)$/gm;
const LITERAL_TARGET = /^\s*["<]([^">]+)[">]/;

/** The last text scanned and what it includes (a hover after a hover scans nothing). */
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
 * Whether a read of `uri`, whose text is `text`, gets the same answer beside a section that changed
 * `leased` as after it. Said only of C-family files, whose answers come from a translation unit
 * built from the file and what it includes: a section that changed only sources this file does not
 * include leaves its tree as it was (clangd settles a changed source in seconds to minutes, the
 * whole unit rebuilt, and cannot be cut into short steps: without this an editor's hover in another
 * file waited for all of it). Anything else (a changed header, a changed file this one includes, an
 * include that cannot be read, another language, whose files import each other's types) waits.
 */
export function readableBesideLease(leased: Iterable<string>, uri: string, text: string): boolean {
  const ext = extensionOf(uri);
  if (!C_FAMILY_SOURCES.has(ext) && !C_FAMILY_HEADERS.has(ext)) return false;
  const changed = [...leased];
  if (changed.includes(uri) || changed.some((u) => !C_FAMILY_SOURCES.has(extensionOf(u)))) return false;
  if (changed.length === 0) return true;
  const included = includedFiles(text);
  return included !== undefined && changed.every((u) => !included.has(basename(uriToPath(u) ?? u)));
}
