/**
 * The tool calls a skill's text names, in the checkable form the skills are written in:
 * `tool_name` for a tool, `tool_name {arg, arg: value}` for a call with its arguments. A test
 * checks every such mention against the tool catalogue, so a skill cannot name what does not exist.
 */
export interface ToolMention {
  tool: string;
  /** Argument names given in braces. */
  args: string[];
  /** The values written for them (`dry_run: true`), as text; undefined where only the name is given. */
  values: Record<string, string | undefined>;
}

export interface SkillMentions {
  calls: ToolMention[];
  /** Backticked snake_case words without braces: tool names, argument names or result fields. */
  words: string[];
}

const SPAN = /`([^`\n]+)`/g;
const CALL = /^([a-z][a-z0-9_]*) \{(.*)\}$/;
const WORD = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
const ARG = /^([a-z][a-z0-9_]*)(?::\s*(.*))?$/s;

export function skillMentions(text: string): SkillMentions {
  const calls: ToolMention[] = [];
  const words: string[] = [];
  for (const [, span = ''] of text.matchAll(SPAN)) {
    const call = CALL.exec(span);
    if (call) {
      const parts = topLevelParts(call[2] ?? '').map((part) => ARG.exec(part) ?? ([part, `?${part}`, undefined] as const));
      calls.push({ tool: call[1] ?? '', args: parts.map((m) => m[1] ?? ''), values: Object.fromEntries(parts.map((m) => [m[1] ?? '', m[2]?.trim()])) });
    } else if (WORD.test(span)) {
      words.push(span);
    }
  }
  return { calls, words };
}

/** Splits at commas that are not inside quotes, brackets or braces. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}
