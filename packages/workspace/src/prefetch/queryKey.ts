/**
 * JSON with object keys sorted at every level, so two params objects that differ only in key
 * order (a tool spreading extra params after the position, a rule writing them in another order)
 * name the same query. `undefined` members are dropped, as JSON.stringify drops them on the wire.
 */
export function normalizedParams(params: unknown): string {
  return JSON.stringify(sortKeys(params));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = sortKeys(v);
  }
  return out;
}

/** The one document a request reads, when its params name one (`textDocument.uri`). */
export function documentOf(params: unknown): string | undefined {
  const td = (params as { textDocument?: { uri?: unknown } } | null)?.textDocument;
  return typeof td?.uri === 'string' ? td.uri : undefined;
}

/**
 * Requests whose answer depends on the text of their own document alone (a syntactic outline):
 * their key carries that document's version, and edits elsewhere leave them valid. Every other
 * request may read any file (a hover shows a type declared elsewhere), so its key carries the
 * workspace epoch, which any change anywhere moves.
 */
const SINGLE_DOCUMENT_METHODS: ReadonlySet<string> = new Set(['textDocument/documentSymbol']);

export function dependsOnOneDocument(method: string): boolean {
  return SINGLE_DOCUMENT_METHODS.has(method);
}

export interface KeyParts {
  /** The connection (a new one after a restart never matches an old entry) and its server's pid. */
  connection: string;
  method: string;
  params: unknown;
  /** `doc:<uri>@<version>` for single-document methods, `ws:<epoch>` for the rest. */
  state: string;
}

export function queryKey(parts: KeyParts): string {
  return `${parts.connection}\u0000${parts.method}\u0000${parts.state}\u0000${normalizedParams(parts.params)}`;
}
