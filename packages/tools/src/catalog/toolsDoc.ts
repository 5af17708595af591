import { z } from 'zod';
import type { AnyToolDefinition, ToolAnnotations } from './toolDefinition.js';
import { TOOL_DETAILS } from './toolDetails.js';

/** A worked example of one tool: the arguments an agent sends and (an excerpt of) the text answer. */
export interface ToolDocExample {
  args: Record<string, unknown>;
  result: string;
}

/** The part of a JSON Schema (as zod 4 writes it) that the reference uses. */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: unknown;
}

export interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

const GROUP_TITLES: Record<string, string> = {
  lifecycle: 'Lifecycle',
  workspace: 'Workspace',
  navigation: 'Navigation',
  analysis: 'Analysis',
  editing: 'Editing',
};

const GROUP_BLURBS: Record<string, string> = {
  lifecycle: 'Set the workspace, start, restart and inspect language servers.',
  workspace: 'Workspace folders and the documents open in the servers.',
  navigation: 'Jump from a position to definitions, declarations, implementations and references; find symbols by name.',
  analysis: 'Diagnostics, hover, outlines, completions, signatures and code actions.',
  editing:
    'Tools that write files. Every write is a transaction: all of its files change or none does (on any failure, timeout or cancellation every byte is put back), and it leaves a checkpoint that list_checkpoints, checkpoint_diff, rollback_to and undo_last work with, from this front or a later one.',
};

/**
 * What the arguments shared by many tools mean, said here once per table row: tools/list leaves them
 * undescribed (their names, minimum and default say it to a model, and the instructions), so as
 * not to repeat the same words in ~20–40 tools' schemas on every turn.
 */
const SHARED_ARGUMENT_DOCS: Readonly<Record<string, string>> = {
  line: '1-based, as `cat -n` shows.',
  column: '1-based, in characters.',
  line_scope_start: 'With position_pattern: search for it from this line…',
  line_scope_end: '…to this line (inclusive).',
  wait_for_ready: 'false: answer at once, with `ready: false` while the server is still indexing.',
  ready_timeout_seconds: 'How long to wait for the server\'s indexing.',
  limit: 'Page size.',
};

function groupTitle(group: string): string {
  return GROUP_TITLES[group] ?? group.charAt(0).toUpperCase() + group.slice(1);
}

/** zod writes the bounds of a safe integer on every `.int()`; they say nothing to a reader. */
function meaningfulBound(n: number | undefined): n is number {
  return n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER;
}

function constraints(s: JsonSchema): string[] {
  const out: string[] = [];
  if (meaningfulBound(s.exclusiveMinimum)) out.push(`> ${s.exclusiveMinimum}`);
  if (meaningfulBound(s.minimum)) out.push(`≥ ${s.minimum}`);
  if (meaningfulBound(s.exclusiveMaximum)) out.push(`< ${s.exclusiveMaximum}`);
  if (meaningfulBound(s.maximum)) out.push(`≤ ${s.maximum}`);
  if (s.minLength === 1) out.push('non-empty');
  else if (s.minLength !== undefined) out.push(`length ≥ ${s.minLength}`);
  if (s.maxLength !== undefined) out.push(`length ≤ ${s.maxLength}`);
  return out;
}

/** A short, TypeScript-like type name for a JSON Schema node. */
export function schemaType(s: JsonSchema): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map(schemaType).join(' | ');
  if (Array.isArray(s.type)) return s.type.join(' | ');
  let base: string;
  switch (s.type) {
    case 'array': {
      const item = s.items ? schemaType(s.items) : 'unknown';
      base = `${item.includes(' ') ? `(${item})` : item}[]`;
      break;
    }
    case 'object':
      if (!s.properties && typeof s.additionalProperties === 'object') base = `Record<string, ${schemaType(s.additionalProperties)}>`;
      else base = 'object';
      break;
    case undefined:
      base = 'unknown';
      break;
    default:
      base = s.type;
  }
  const c = constraints(s);
  return c.length ? `${base} (${c.join(', ')})` : base;
}

function itemFields(s: JsonSchema): string[] {
  const obj = s.type === 'array' ? s.items : s;
  return obj?.type === 'object' && obj.properties ? Object.keys(obj.properties) : [];
}

/** The top-level fields of a zod raw shape, through its JSON Schema. */
export function shapeFields(shape: z.ZodRawShape, io: 'input' | 'output'): FieldDoc[] {
  const schema = z.toJSONSchema(z.object(shape), { io, unrepresentable: 'any' }) as JsonSchema;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, prop]) => {
    const fields = itemFields(prop);
    const description = [
      prop.description ?? (io === 'input' ? SHARED_ARGUMENT_DOCS[name] : undefined) ?? '',
      prop.default !== undefined ? `Default ${JSON.stringify(prop.default)}.` : '',
      fields.length ? `Fields: ${fields.map((f) => `\`${f}\``).join(', ')}.` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return { name, type: schemaType(prop), required: required.has(name), description };
  });
}

function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

/** A code fence longer than any run of backticks in the content. */
function fence(content: string, lang: string): string {
  const longest = Math.max(0, ...[...content.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${lang}\n${content}\n${ticks}`;
}

function annotationsLine(a: ToolAnnotations): string {
  const yesNo = (b: boolean) => (b ? 'yes' : 'no');
  return `read-only: ${yesNo(a.readOnlyHint)} · destructive: ${yesNo(a.destructiveHint)} · idempotent: ${yesNo(a.idempotentHint)} · open-world: ${yesNo(a.openWorldHint)}`;
}

function intro(toolCount: number): string[] {
  return [
    '# agent-lsp tools',
    '',
    '<!-- Generated by scripts/gen-tools-doc.mjs from packages/tools/src/catalog.ts and catalog/examples.ts. Do not edit by hand: run `npx tsc -b && node scripts/gen-tools-doc.mjs`. -->',
    '',
    `agent-lsp offers ${toolCount} MCP tools that answer code questions with real language servers. ` +
      'Call `start_lsp` with the project root first; servers start on first use of a file of their language. ' +
      'The examples below run on the bundled workspace at `examples/workspace` (Python under `py/shop`, TypeScript under `ts/src`).',
    '',
    'Conventions shared by every tool:',
    '',
    '- **Positions** are 1-based lines (as `cat -n` shows them) and 1-based columns counted in characters (not bytes, not UTF-16 units).',
    '- **`position_pattern`** works wherever a position does: a snippet that occurs exactly once in the file, with `@@` marking the cursor (default: the start of the snippet), e.g. `"def @@compute_total("`. When it occurs several times, `line_scope_start`/`line_scope_end` (1-based, inclusive) narrow the search to those lines.',
    '- **File paths** are relative to the workspace root, or absolute.',
    "- **Argument names** are checked, nested ones too: a name a tool does not take is refused (\"include_declaraton is not an argument of find_references: did you mean include_declaration?\") and nothing is done. The original agent-lsp's names are known: `language_id` beside a file is accepted (the file says its language), `symbol_file`, `character` and the like are taken as ours (`file_path`, `column`), and the few with no equal here are refused with what to pass instead.",
    '- **Readiness**: every result has `ready`. Queries wait while the server is still indexing so that answers are complete (`wait_for_ready`, default true, with progress notifications; `ready_timeout_seconds`, default 300). With `wait_for_ready: false` a tool answers at once with `ready: false`, `state` and `progress` while the server is not ready.',
    '- **Lists** are paged: results carry `total`, `complete`, `limit`, `offset` (and `returned`); pass `offset` for the next page and `limit` for a page size.',
    '- **Answers** come as compact text (what the examples show) and as structured content with the output fields listed for each tool.',
    '- **Tool groups**: `agent-lsp serve --tools <groups>` offers only the tools of the given groups.',
    '',
  ];
}

function toolSection(tool: AnyToolDefinition, example: ToolDocExample | undefined): string[] {
  const details = TOOL_DETAILS[tool.name];
  const lines: string[] = [`### ${tool.name}`, '', `**${tool.title}** (group \`${tool.group}\`)`, '', tool.description, ''];
  if (details && details !== tool.description) lines.push(details, '');
  if (tool.aliases?.length) lines.push(`Also callable as ${tool.aliases.map((a) => `\`${a}\``).join(', ')} (not listed in tools/list).`, '');
  lines.push(`*${annotationsLine(tool.annotations)}*`, '');

  const args = shapeFields(tool.input, 'input');
  lines.push('**Arguments**', '');
  if (args.length === 0) {
    lines.push('None.', '');
  } else {
    lines.push('| Name | Type | Required | Description |', '| --- | --- | --- | --- |');
    for (const a of args) lines.push(`| \`${a.name}\` | \`${cell(a.type)}\` | ${a.required ? 'yes' : 'no'} | ${cell(a.description)} |`);
    lines.push('');
  }

  const out = shapeFields(tool.output, 'output');
  lines.push('**Output fields**', '');
  // tools/list's outline names the fields only (packages/server/src/outputOutline.ts): which are always there is said here.
  lines.push('| Field | Type | Always | Description |', '| --- | --- | --- | --- |');
  for (const o of out) lines.push(`| \`${o.name}\` | \`${cell(o.type)}\` | ${o.required ? 'yes' : 'no'} | ${cell(o.description)} |`);
  lines.push('');

  if (example) {
    lines.push('**Example**', '', fence(JSON.stringify(example.args, null, 2), 'json'), '', fence(example.result, 'text'), '');
  }
  return lines;
}

/**
 * The Markdown reference of the given tools (docs/tools.md): conventions, a table of contents by
 * group, then each tool with its annotations, arguments, output fields and example. Pure: the same
 * tools and examples always give the same text.
 */
export function renderToolsDoc(tools: readonly AnyToolDefinition[], examples: Readonly<Record<string, ToolDocExample>>): string {
  const groups: string[] = [];
  for (const t of tools) if (!groups.includes(t.group)) groups.push(t.group);
  const inGroup = (g: string) => tools.filter((t) => t.group === g);

  const lines = intro(tools.length);
  lines.push('## Contents', '');
  for (const g of groups) {
    lines.push(`- [${groupTitle(g)}](#${g.toLowerCase()})`);
    for (const t of inGroup(g)) lines.push(`  - [\`${t.name}\`](#${t.name}): ${t.title}`);
  }
  lines.push('');

  for (const g of groups) {
    lines.push(`## ${groupTitle(g)}`, '');
    const blurb = GROUP_BLURBS[g];
    if (blurb) lines.push(blurb, '');
    for (const t of inGroup(g)) lines.push(...toolSection(t, examples[t.name]));
  }

  return `${lines.join('\n').trimEnd()}\n`;
}
