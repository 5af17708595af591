/**
 * Which tool calls a phase allows or advances on:
 *   `tool`        that tool;
 *   `prefix*`     every tool whose name starts with prefix;
 *   `tool(arg)`   that tool called with arg set (true, or any non-empty value);
 *   `tool(!arg)`  that tool called without arg (absent, false or empty).
 * The condition tells, for example, a preview (`rename_symbol(dry_run)`) from a write.
 */
export const TOOL_PATTERN = /^([a-z][a-z0-9_]*)(\*|\((!?)([a-z][a-z0-9_]*)\))?$/;

export interface ToolPattern {
  /** The tool name, or the prefix for `prefix*`. */
  name: string;
  prefix: boolean;
  condition?: { arg: string; set: boolean };
}

export interface ToolCallShape {
  tool: string;
  args: Readonly<Record<string, unknown>>;
}

export function parseToolPattern(text: string): ToolPattern {
  const m = TOOL_PATTERN.exec(text);
  if (!m) throw new Error(`not a tool pattern: ${text}`);
  const name = m[1] ?? '';
  if (m[2] === '*') return { name, prefix: true };
  if (m[4]) return { name, prefix: false, condition: { arg: m[4], set: m[3] !== '!' } };
  return { name, prefix: false };
}

/** Whether the pattern can match a tool of this name (its condition aside). */
export function matchesToolName(tool: string, pattern: string): boolean {
  const p = parseToolPattern(pattern);
  return p.prefix ? tool.startsWith(p.name) : tool === p.name;
}

export function matchesToolCall(call: ToolCallShape, pattern: string): boolean {
  if (!matchesToolName(call.tool, pattern)) return false;
  const condition = parseToolPattern(pattern).condition;
  if (!condition) return true;
  const value = call.args[condition.arg];
  const isSet = value !== undefined && value !== null && value !== false && value !== '';
  return isSet === condition.set;
}

/** The pattern in words, for messages: `rename_symbol with dry_run`, `apply_edit without dry_run`. */
export function describeToolPattern(pattern: string): string {
  const p = parseToolPattern(pattern);
  if (p.prefix) return `${p.name}*`;
  return p.condition ? `${p.name} ${p.condition.set ? 'with' : 'without'} ${p.condition.arg}` : p.name;
}
