import { applyEdits, findNodeAtLocation, modify, parse, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/**
 * Edits one key of a JSON (or JSONC) config file as text: the rest of the file stays byte for
 * byte, comments included. A file that does not parse is refused, never rewritten.
 */
export type JsonEdit = { changed: false } | { changed: true; text: string } | { error: string };

function parseObject(text: string): { value: Record<string, unknown> } | { error: string } {
  if (text.trim() === '') return { value: {} };
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0] as ParseError;
    const line = text.slice(0, first.offset).split('\n').length;
    return { error: `it is not valid JSON (${printParseErrorCode(first.error)} at line ${line})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'it is not a JSON object' };
  return { value: value as Record<string, unknown> };
}

function indentUnit(text: string): string {
  const m = /\n([ \t]+)"/.exec(text);
  if (m?.[1]?.startsWith('\t')) return '\t';
  return ' '.repeat(m?.[1]?.length ?? 2);
}

/** The whitespace that starts the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

/** `value` as JSON indented by `unit`, its lines after the first starting at `base`. */
function pretty(value: unknown, unit: string, base: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `\n${base}`);
}

/** Text that adds `key: value` to the object node: after its last member, or inside it when it is empty. */
function insertMember(text: string, object: Node, key: string, value: unknown, unit: string): string {
  const base = lineIndent(text, object.offset);
  const first = object.children?.[0];
  const inner = first ? lineIndent(text, first.offset) : base + unit;
  const member = `${JSON.stringify(key)}: ${pretty(value, unit, inner)}`;
  const last = object.children?.[object.children.length - 1];
  if (last) {
    const end = last.offset + last.length;
    return `${text.slice(0, end)},\n${inner}${member}${text.slice(end)}`;
  }
  const close = object.offset + object.length - 1;
  return `${text.slice(0, object.offset + 1)}\n${inner}${member}\n${base}${text.slice(close)}`;
}

/**
 * Sets `container.name` to `entry` (or removes it when entry is undefined). Only our member's
 * text is written: the rest of the file, its comments and layout, stays byte for byte.
 */
export function setJsonEntry(text: string, container: string, name: string, entry: Record<string, unknown> | undefined): JsonEdit {
  const parsed = parseObject(text);
  if ('error' in parsed) return parsed;
  const servers = parsed.value[container];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    return { error: `its "${container}" is not an object` };
  }
  const current = (servers as Record<string, unknown> | undefined)?.[name];
  if (entry === undefined ? current === undefined : JSON.stringify(current) === JSON.stringify(entry)) return { changed: false };
  if (entry === undefined) return { changed: true, text: applyEdits(text, modify(text, [container, name], undefined, {})) };
  const base = text.trim() === '' ? '{}\n' : text;
  const unit = indentUnit(base);
  const root = parseTree(base, [], { allowTrailingComma: true }) as Node;
  const existing = findNodeAtLocation(root, [container, name]);
  if (existing) {
    const indent = lineIndent(base, existing.parent?.offset ?? existing.offset);
    return { changed: true, text: base.slice(0, existing.offset) + pretty(entry, unit, indent) + base.slice(existing.offset + existing.length) };
  }
  const holder = findNodeAtLocation(root, [container]);
  if (holder) return { changed: true, text: insertMember(base, holder, name, entry, unit) };
  return { changed: true, text: insertMember(base, root, container, { [name]: entry }, unit) };
}

/** Our entry in the file, if any (for uninstall and dry runs). */
export function hasJsonEntry(text: string, container: string, name: string): boolean {
  const parsed = parseObject(text);
  if ('error' in parsed) return false;
  const servers = parsed.value[container];
  return typeof servers === 'object' && servers !== null && Object.hasOwn(servers, name);
}
