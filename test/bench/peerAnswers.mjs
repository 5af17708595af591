// What each peer's find_references answer says, read from its own text (every MCP server words it
// its own way), and whether it is complete: its count against the language server's own answer.
// Pure functions, so the harness's reading of the answers is unit-tested (peerAnswers.test.ts).

/** The text of an MCP tool result's content. */
export const resultText = (result) => result?.content?.map((c) => c.text ?? '').join('\n') ?? '';

/** Ours: structuredContent { total, complete } (the declaration included). */
export function oursReferences(result) {
  const s = result?.structuredContent;
  return { references: typeof s?.total === 'number' ? s.total : NaN, ready: !result?.isError && s?.complete === true };
}

/** The original agent-lsp (Go): its compact answer heads the locations with "## [N]{EndCol,…}" (the declaration excluded); while its daemon indexes it says so. */
export function originalReferences(result) {
  const text = resultText(result);
  const ready = !result?.isError && !/still being indexed|not ready|indexing/i.test(text);
  const count = /## \[(\d+)\]/.exec(text)?.[1];
  return { references: count !== undefined ? Number(count) : /no references/i.test(text) ? 0 : NaN, ready };
}

/**
 * Serena's find_referencing_symbols: JSON { file: { kind: [ { name_path, content_around_reference } ] } },
 * one entry per reference, the declaration excluded.
 */
export function serenaReferences(result) {
  const text = resultText(result);
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { references: NaN, ready: false };
  }
  let n = 0;
  for (const byKind of Object.values(parsed ?? {})) for (const entries of Object.values(byKind ?? {})) n += Array.isArray(entries) ? entries.length : 0;
  return { references: n, ready: !result?.isError };
}

/**
 * cclsp: a block "Results for NAME (kind) at FILE:L:C:" then one "path:line:col" a line
 * (include_declaration: true) for each symbol of the file whose name contains `symbol`
 * ("reverse" also answers reverse_lazy, to_be_reversed): only the block of `symbol` itself counts.
 */
export function cclspReferences(result, symbol) {
  const text = resultText(result);
  const blocks = text.split(/\n(?=Results for )/).filter((b) => b.startsWith('Results for '));
  const own = blocks.find((b) => b.startsWith(`Results for ${symbol} (`));
  if (!own) return { references: /no references/i.test(text) ? 0 : NaN, ready: !result?.isError, others: blocks.length };
  const references = own.split('\n').slice(1).filter((l) => /:\d+:\d+$/.test(l.trim())).length;
  return { references, ready: !result?.isError, others: blocks.length - 1 };
}

/** lsmcp: "Found N references to \"NAME\"" (the declaration included). */
export function lsmcpReferences(result) {
  const text = resultText(result);
  const count = /Found (\d+) references?/.exec(text)?.[1];
  return { references: count !== undefined ? Number(count) : /no references/i.test(text) ? 0 : NaN, ready: !result?.isError };
}

/**
 * Whether a peer's count is the whole answer: the language server's own count (`truth`, the
 * declaration included) less the declaration when the peer leaves it out.
 */
export function completeness(references, truth, includesDeclaration) {
  const expected = includesDeclaration ? truth : truth - 1;
  return { expected, complete: references === expected };
}

/** The identifier a position pattern points at ("def @@reverse(viewname" → "reverse"). */
export function symbolAt(pattern) {
  const name = /@@([A-Za-z_][A-Za-z0-9_]*)/.exec(pattern)?.[1];
  if (!name) throw new Error(`no identifier after @@ in ${pattern}`);
  return name;
}
