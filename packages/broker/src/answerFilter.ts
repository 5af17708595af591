import { uriToPath } from '@agent-lsp/protocol';

/** Whether a file (by absolute path) belongs in one client's answers. */
export type FileVisible = (path: string) => boolean;

type Filter = (result: unknown, visible: (uri: unknown) => boolean) => unknown;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Keeps the array entries whose file is visible; a single entry whose file is not becomes null. */
function entries(uriOf: (entry: Record<string, unknown>) => unknown): Filter {
  return (result, visible) => {
    const keep = (e: unknown) => !isObject(e) || visible(uriOf(e));
    if (Array.isArray(result)) return (result as unknown[]).filter(keep);
    return isObject(result) && !keep(result) ? null : result;
  };
}

/** Location, LocationLink, CallHierarchyItem, TypeHierarchyItem: `uri` or `targetUri`. */
const locations = entries((e) => e['targetUri'] ?? e['uri']);
/** SymbolInformation and WorkspaceSymbol: `location.uri`. */
const symbols = entries((e) => (isObject(e['location']) ? e['location']['uri'] : undefined));
/** DocumentLink: `target` (any URI; fragments such as `#L3` are not part of the file). */
const links = entries((e) => (typeof e['target'] === 'string' ? e['target'].replace(/#.*$/, '') : undefined));

/** A WorkspaceEdit without the files that are not the client's. */
const workspaceEdit: Filter = (result, visible) => {
  if (!isObject(result)) return result;
  const out: Record<string, unknown> = { ...result };
  if (isObject(result['changes'])) out['changes'] = Object.fromEntries(Object.entries(result['changes']).filter(([uri]) => visible(uri)));
  if (Array.isArray(result['documentChanges'])) {
    out['documentChanges'] = result['documentChanges'].filter((c: unknown) => {
      if (!isObject(c)) return true;
      const uris = isObject(c['textDocument']) ? [c['textDocument']['uri']] : [c['uri'], c['oldUri'], c['newUri']].filter((u) => u !== undefined);
      return uris.every(visible);
    });
  }
  return out;
};

/** The answers that name files, by method, and how to leave out the files a client must not see. */
const FILTERS: Record<string, Filter> = {
  'textDocument/references': locations,
  'textDocument/definition': locations,
  'textDocument/declaration': locations,
  'textDocument/typeDefinition': locations,
  'textDocument/implementation': locations,
  'textDocument/prepareCallHierarchy': locations,
  'callHierarchy/incomingCalls': entries((e) => (isObject(e['from']) ? e['from']['uri'] : undefined)),
  'callHierarchy/outgoingCalls': entries((e) => (isObject(e['to']) ? e['to']['uri'] : undefined)),
  'textDocument/prepareTypeHierarchy': locations,
  'typeHierarchy/supertypes': locations,
  'typeHierarchy/subtypes': locations,
  'workspace/symbol': symbols,
  'textDocument/documentLink': links,
  'textDocument/rename': workspaceEdit,
};

/**
 * One client's answer without the locations whose file it must not see (files that lie only in
 * workspace folders other clients added). Answers of other methods, and URIs that are not files,
 * pass unchanged.
 */
export function filterAnswer(method: string, result: unknown, fileVisible: FileVisible): unknown {
  const filter = FILTERS[method];
  if (!filter || result === null || result === undefined) return result;
  return filter(result, (uri) => {
    if (typeof uri !== 'string') return true;
    const path = uriToPath(uri);
    return path === undefined || fileVisible(path);
  });
}
