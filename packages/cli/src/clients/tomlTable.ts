/**
 * A minimal TOML editor for one table (`[mcp_servers.agent-lsp]`): it finds the table's lines,
 * replaces or removes them, or appends the table, and leaves every other byte as it was. It reads
 * enough TOML to know where tables start (multi-line strings and arrays are skipped over) and to
 * refuse a file that is not TOML-shaped, rather than guess.
 */
export type TomlEdit = { changed: false } | { changed: true; text: string } | { error: string };

interface Line {
  start: number;
  end: number;
  /** A table header's dotted name, unquoted (`mcp_servers.agent-lsp`). */
  header?: string;
}

function headerName(raw: string): string {
  return raw
    .split('.')
    .map((part) => part.trim().replace(/^"(.*)"$/, '$1').replace(/^'(.*)'$/, '$1'))
    .join('.');
}

/** The file's logical lines (a multi-line value counts as one), or where it stops being TOML. */
function scan(text: string): { lines: Line[] } | { error: string } {
  const lines: Line[] = [];
  let pos = 0;
  let lineNo = 0;
  while (pos < text.length) {
    const start = pos;
    let nl = text.indexOf('\n', pos);
    if (nl < 0) nl = text.length - 1;
    let line = text.slice(pos, nl + 1);
    lineNo++;
    const body = line.replace(/#.*$/s, '').trim();
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(body);
    if (body === '' || header) {
      pos = nl + 1;
      lines.push({ start, end: pos, ...(header ? { header: headerName(header[1] as string) } : {}) });
      continue;
    }
    if (!/^[A-Za-z0-9_"'.-][^=]*=/.test(body)) return { error: `line ${lineNo} is neither a table header nor key = value` };
    // Follow a value over lines while a triple-quoted string or a bracket stays open.
    let end = nl + 1;
    for (;;) {
      const value = line.slice(line.indexOf('=') + 1);
      const triples = (value.match(/"""|'''/g) ?? []).length;
      const stripped = value.replace(/"""[\s\S]*?("""|$)|'''[\s\S]*?('''|$)|"(?:[^"\\\n]|\\.)*"|'[^'\n]*'/g, '""').replace(/#[^\n]*/g, '');
      const depth = (stripped.match(/[[{]/g) ?? []).length - (stripped.match(/[\]}]/g) ?? []).length;
      if (triples % 2 === 0 && depth <= 0) break;
      if (end >= text.length) return { error: `the value at line ${lineNo} never closes` };
      let next = text.indexOf('\n', end);
      if (next < 0) next = text.length - 1;
      line = text.slice(start, next + 1);
      end = next + 1;
    }
    lines.push({ start, end });
    pos = end;
  }
  return { lines };
}

function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** A key as TOML writes it: bare when it can be, else quoted. */
function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}

/** A value of an MCP entry: a string, a list of strings, or a table of strings (env) written inline. */
function tomlValue(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map((x) => tomlString(String(x))).join(', ')}]`;
  if (v !== null && typeof v === 'object') return `{ ${Object.entries(v).map(([k, x]) => `${tomlKey(k)} = ${tomlString(String(x))}`).join(', ')} }`;
  return tomlString(String(v));
}

/** The table's text: string, string-list and string-table values only, which is all an MCP entry has. */
export function tomlTableText(name: string, values: Record<string, unknown>): string {
  const rows = Object.entries(values).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`);
  return `[${name}]\n${rows.join('\n')}\n`;
}

/** The byte range of table `name` (header to the next header), if present. */
function tableRange(lines: Line[], name: string): { start: number; end: number } | undefined | 'twice' {
  const at = lines.flatMap((l, i) => (l.header === name ? [i] : []));
  if (at.length === 0) return undefined;
  if (at.length > 1) return 'twice';
  const i = at[0] as number;
  let j = i + 1;
  while (j < lines.length && (lines[j] as Line).header === undefined) j++;
  // Blank lines before the next table stay with it.
  let last = j - 1;
  const blankTail = (k: number) => k > i && (lines[k] as Line).end - (lines[k] as Line).start <= 1;
  while (blankTail(last)) last--;
  return { start: (lines[i] as Line).start, end: (lines[last] as Line).end };
}

export function setTomlTable(text: string, name: string, values: Record<string, unknown> | undefined): TomlEdit {
  const scanned = scan(text);
  if ('error' in scanned) return { error: `it is not valid TOML (${scanned.error})` };
  const range = tableRange(scanned.lines, name);
  if (range === 'twice') return { error: `it defines [${name}] twice` };
  const wanted = values ? tomlTableText(name, values) : '';
  if (!range) {
    if (!values) return { changed: false };
    const sep = text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
    return { changed: true, text: text + sep + wanted };
  }
  const current = text.slice(range.start, range.end);
  if (values && current === wanted) return { changed: false };
  let before = text.slice(0, range.start);
  // Removing the table we appended last also takes the blank line we put before it.
  if (!values && range.end === text.length && before.endsWith('\n\n')) before = before.slice(0, -1);
  return { changed: true, text: before + wanted + text.slice(range.end) };
}

export function hasTomlTable(text: string, name: string): boolean {
  const scanned = scan(text);
  return !('error' in scanned) && tableRange(scanned.lines, name) !== undefined;
}
