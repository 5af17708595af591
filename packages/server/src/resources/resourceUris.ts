/** The resource templates agent-lsp offers, each answered by the tool whose result shape it shares. */
export const RESOURCE_TEMPLATES = [
  {
    name: 'diagnostics',
    scheme: 'lsp-diagnostics',
    tool: 'get_diagnostics',
    uriTemplate: 'lsp-diagnostics://{+path}',
    title: 'Diagnostics of a file',
    description: 'get_diagnostics for the file at {path} (absolute, e.g. lsp-diagnostics:///home/u/proj/app.py); lsp-diagnostics:// alone: every open file. Subscribable.',
  },
  {
    name: 'hover',
    scheme: 'lsp-hover',
    tool: 'inspect_symbol',
    uriTemplate: 'lsp-hover://{+path}{?line,column}',
    title: 'Hover at a position',
    description: 'inspect_symbol at {path}, 1-based line and column, e.g. lsp-hover:///home/u/proj/app.py?line=3&column=5.',
  },
  {
    name: 'completions',
    scheme: 'lsp-completions',
    tool: 'get_completions',
    uriTemplate: 'lsp-completions://{+path}{?line,column}',
    title: 'Completions at a position',
    description: 'get_completions at {path}, 1-based line and column, e.g. lsp-completions:///home/u/proj/app.py?line=3&column=5.',
  },
] as const;

export type ResourceKind = (typeof RESOURCE_TEMPLATES)[number]['name'];

/** A resource URI taken apart: which tool answers it, and with what arguments. */
export interface ParsedResource {
  kind: ResourceKind;
  tool: string;
  /** The file, as written in the URI (absolute, or root-relative); absent: every open file. */
  filePath?: string;
  args: Record<string, unknown>;
}

/** Why a resource URI cannot be read: becomes an MCP InvalidParams error. */
export class ResourceUriError extends Error {}

/**
 * `lsp-diagnostics:///abs/path.py`, `lsp-hover:///abs/path.py?line=3&column=5`: the path is the
 * URI's path (percent-decoded); a host part (`lsp-diagnostics://src/app.py`) makes it root-relative.
 */
export function parseResourceUri(uri: string): ParsedResource {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ResourceUriError(`${uri} is not a URI. Use e.g. lsp-diagnostics:///absolute/path/file.py.`);
  }
  const scheme = url.protocol.replace(/:$/, '');
  const template = RESOURCE_TEMPLATES.find((t) => t.scheme === scheme);
  if (!template) throw new ResourceUriError(`Unknown resource scheme ${scheme}: agent-lsp serves ${RESOURCE_TEMPLATES.map((t) => `${t.scheme}://`).join(', ')}.`);
  const rawPath = url.host + url.pathname;
  const decoded = decodeURIComponent(rawPath);
  const filePath = decoded === '' || decoded === '/' ? undefined : decoded;
  const parsed: ParsedResource = { kind: template.name, tool: template.tool, args: {} };
  if (filePath !== undefined) {
    parsed.filePath = filePath;
    parsed.args['file_path'] = filePath;
  }
  if (template.name === 'diagnostics') return parsed;
  if (filePath === undefined) throw new ResourceUriError(`${uri} names no file: use ${template.scheme}:///absolute/path?line=N&column=M.`);
  for (const key of ['line', 'column'] as const) {
    const value = url.searchParams.get(key);
    const n = value === null ? NaN : Number(value);
    if (!Number.isInteger(n) || n < 1) throw new ResourceUriError(`${uri}: ${key} must be a 1-based integer (?line=N&column=M).`);
    parsed.args[key] = n;
  }
  return parsed;
}

/** The diagnostics resource of a file (what resources/list offers for each open document). */
export function diagnosticsUri(path: string): string {
  return `lsp-diagnostics://${path.split('/').map(encodeURIComponent).join('/')}`;
}
