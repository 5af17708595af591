/**
 * Whether the text of one document (at `importerUri`) seems to import the module of another
 * (`importedUri`): an `import`/`from`/`require`/`#include` line naming the imported file's stem as
 * a whole word (`from pkg.util import x`, `import './util.js'`, `#include "util.h"`). A guess for
 * prediction only — a wrong one costs a speculation, never an answer.
 */
export function importsOf(text: string, importerUri: string, importedUri: string): boolean {
  if (importerUri === importedUri) return false;
  const stem = stemOf(importedUri);
  if (!stem || stem === 'index' || stem === '__init__') return false;
  const word = stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const line = new RegExp(`^\\s*(?:import|from|export\\s[^\\n]*\\bfrom|#include|.*\\brequire\\s*\\()[^\\n]*\\b${word}\\b`, 'm');
  return line.test(text);
}

function stemOf(uri: string): string | undefined {
  const name = decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
  const dot = name.indexOf('.');
  return dot > 0 ? name.slice(0, dot) : name || undefined;
}
