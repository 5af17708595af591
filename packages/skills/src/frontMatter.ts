/**
 * A strict reader for the front matter of our skill files: a small, fixed subset of YAML, so that
 * a typo fails loudly with its line number instead of parsing into something unintended.
 *
 * Accepted, and nothing else:
 *   key: scalar                      (plain text to the end of the line, "a JSON string", true, false)
 *   key: [a, b, c]                   (a flow list of plain scalars)
 *   key:                             (a block list of maps, items two spaces in)
 *     - key: scalar | [list]
 *       key: scalar | [list]
 * Comments (`#` at the start of a line) and blank lines are skipped.
 */
export type FrontMatterScalar = string | boolean;
export type FrontMatterValue = FrontMatterScalar | string[] | Record<string, FrontMatterScalar | string[]>[];

export class FrontMatterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrontMatterError';
  }
}

export interface SplitDocument {
  frontMatter: Record<string, FrontMatterValue>;
  body: string;
}

const FENCE = '---';
const KEY = /^([a-z][a-z0-9_]*):(?: (.*))?$/;

/** Splits `---\n<front matter>\n---\n<body>` and parses the front matter. */
export function splitFrontMatter(text: string, source: string): SplitDocument {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[0] !== FENCE) throw new FrontMatterError(`${source}: must start with a '---' line opening the front matter`);
  const end = lines.indexOf(FENCE, 1);
  if (end < 0) throw new FrontMatterError(`${source}: the front matter has no closing '---' line`);
  return { frontMatter: parseFrontMatter(lines.slice(1, end), source, 2), body: lines.slice(end + 1).join('\n').replace(/^\n+/, '') };
}

function parseFrontMatter(lines: readonly string[], source: string, firstLine: number): Record<string, FrontMatterValue> {
  const out: Record<string, FrontMatterValue> = {};
  const at = (i: number) => `${source}:${firstLine + i}`;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (isSkipped(line)) {
      i++;
      continue;
    }
    const match = KEY.exec(line);
    if (!match) throw new FrontMatterError(`${at(i)}: expected 'key: value' at the start of the line, got ${JSON.stringify(line)}`);
    const key = match[1] ?? '';
    if (key in out) throw new FrontMatterError(`${at(i)}: '${key}' is given twice`);
    const rest = match[2]?.trim() ?? '';
    i++;
    if (rest !== '') {
      out[key] = parseValue(rest, at(i - 1));
      continue;
    }
    const items: Record<string, FrontMatterScalar | string[]>[] = [];
    while (i < lines.length && (isSkipped(lines[i] ?? '') || (lines[i] ?? '').startsWith('  '))) {
      const itemLine = lines[i] ?? '';
      if (isSkipped(itemLine)) {
        i++;
        continue;
      }
      if (itemLine.startsWith('  - ')) items.push({});
      else if (!itemLine.startsWith('    ') || items.length === 0) throw new FrontMatterError(`${at(i)}: a list item starts with '  - ' and continues with lines four spaces in`);
      const entry = KEY.exec(itemLine.slice(4));
      if (!entry) throw new FrontMatterError(`${at(i)}: expected 'key: value' in a list item, got ${JSON.stringify(itemLine)}`);
      const item = items[items.length - 1] ?? {};
      const itemKey = entry[1] ?? '';
      if (itemKey in item) throw new FrontMatterError(`${at(i)}: '${itemKey}' is given twice in one item`);
      const value = entry[2]?.trim() ?? '';
      if (value === '') throw new FrontMatterError(`${at(i)}: '${itemKey}' has no value (nesting deeper than one list is not supported)`);
      item[itemKey] = parseValue(value, at(i));
      i++;
    }
    if (items.length === 0) throw new FrontMatterError(`${at(i - 1)}: '${key}' has no value and no list items`);
    out[key] = items;
  }
  return out;
}

function isSkipped(line: string): boolean {
  return line.trim() === '' || line.trimStart().startsWith('#');
}

function parseValue(text: string, where: string): FrontMatterScalar | string[] {
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) throw new FrontMatterError(`${where}: a list must close with ']' on the same line`);
    const inner = text.slice(1, -1).trim();
    if (inner === '') return [];
    return inner.split(',').map((part) => {
      const item = part.trim();
      if (item === '' || /["'[\]{}]/.test(item)) throw new FrontMatterError(`${where}: list items are plain words separated by commas, got ${JSON.stringify(item)}`);
      return item;
    });
  }
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text.startsWith('"')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'string') return parsed;
    } catch {
      // reported below
    }
    throw new FrontMatterError(`${where}: a quoted value must be one JSON string, got ${text}`);
  }
  if (/^['{|>&*!%@`]/.test(text)) throw new FrontMatterError(`${where}: unsupported YAML syntax ${JSON.stringify(text)}; write plain text or a "JSON string"`);
  if (/:\s|\s#/.test(text)) throw new FrontMatterError(`${where}: ': ' and ' #' are ambiguous in plain text; quote the value as a "JSON string"`);
  return text;
}
