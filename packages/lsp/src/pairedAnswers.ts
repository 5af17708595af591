/**
 * How the answers of a paired server's two halves (pairedTransport.ts) become one server's: its
 * initialize result and its published diagnostics.
 */

/** The capability that offers each method a companion may answer first. */
const PROVIDER_OF: Readonly<Record<string, string>> = {
  'textDocument/hover': 'hoverProvider',
  'textDocument/completion': 'completionProvider',
  'textDocument/documentSymbol': 'documentSymbolProvider',
  'textDocument/formatting': 'documentFormattingProvider',
  'textDocument/rangeFormatting': 'documentRangeFormattingProvider',
  'textDocument/documentLink': 'documentLinkProvider',
  'textDocument/documentColor': 'colorProvider',
  'textDocument/foldingRange': 'foldingRangeProvider',
  'textDocument/linkedEditingRange': 'linkedEditingRangeProvider',
};

interface InitializeResult {
  capabilities?: Record<string, unknown>;
  serverInfo?: { name?: string; version?: string };
}

/**
 * The main server's initialize result, with the companion's provider for each method it answers
 * first, diagnostics pulls (the pair answers them), and a serverInfo naming both (the companion
 * is the one the user asked for: its version leads).
 */
export function mergeInitializeResults(main: unknown, companion: unknown, answersFirst: readonly string[]): InitializeResult {
  const m = (main ?? {}) as InitializeResult;
  const c = (companion ?? {}) as InitializeResult;
  const capabilities: Record<string, unknown> = { ...(m.capabilities ?? {}) };
  for (const method of answersFirst) {
    const key = PROVIDER_OF[method];
    const offered = key ? c.capabilities?.[key] : undefined;
    if (key && offered !== undefined && offered !== false) capabilities[key] = offered;
  }
  // The pair answers pulls itself, from both halves (pairedPull.ts).
  capabilities['diagnosticProvider'] = { interFileDependencies: true, workspaceDiagnostics: false };
  const mainName = [m.serverInfo?.name, m.serverInfo?.version].filter(Boolean).join(' ');
  return {
    ...m,
    capabilities,
    serverInfo: {
      name: c.serverInfo?.name ?? 'companion',
      version: `${c.serverInfo?.version ?? '?'}${mainName ? ` with ${mainName}` : ''}`,
    },
  };
}

interface Published {
  diagnostics: unknown[];
  version?: number;
}

interface PublishParams {
  uri: string;
  diagnostics: unknown[];
  version?: number;
}

/**
 * Both halves publish diagnostics for a companion document (the companion its template's, the
 * main server its script's): a client keeps only the last push per document, so each push is
 * sent on as the union of both halves' latest. It keeps a version only when every half that
 * published for the document stamped the same one: an unversioned half may describe other text.
 */
export class PairedDiagnostics {
  private readonly latest = new Map<string, { main?: Published; companion?: Published }>();

  publish(side: 'main' | 'companion', params: unknown): PublishParams {
    const p = params as PublishParams;
    const entry = this.latest.get(p.uri) ?? {};
    entry[side] = { diagnostics: p.diagnostics ?? [], ...(p.version !== undefined ? { version: p.version } : {}) };
    this.latest.set(p.uri, entry);
    const halves = [entry.main, entry.companion].filter((h): h is Published => h !== undefined);
    const versions = new Set(halves.map((h) => h.version));
    const [only] = versions;
    return {
      uri: p.uri,
      diagnostics: halves.flatMap((h) => h.diagnostics),
      ...(versions.size === 1 && only !== undefined ? { version: only } : {}),
    };
  }
}
