// A reader and checker for the original agent-lsp's assertion cases (its `examples/mcp-assert/go`,
// kept in ../shared/original-suite): the same semantics as its runner, mcp-assert — setup calls
// whose results may be captured by a JSON path, then one call whose text is checked. The result's
// text is its text content items joined, as mcp-assert reads it (with AGENT_LSP_OUTPUT_FORMAT=json,
// as the original's CI runs it, that text is the structured result as JSON).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface ToolCall {
  tool: string;
  args?: Record<string, unknown>;
  capture?: Record<string, string>;
}

export interface Expectation {
  not_error?: boolean;
  is_error?: boolean;
  not_empty?: boolean;
  contains?: string[];
  not_contains?: string[];
  min_results?: number;
  max_results?: number;
}

export interface OriginalCase {
  file: string;
  name: string;
  setup: ToolCall[];
  assert: ToolCall & { expect: Expectation };
  timeoutMs: number;
}

const KNOWN_EXPECTATIONS = new Set(['not_error', 'is_error', 'not_empty', 'contains', 'not_contains', 'min_results', 'max_results']);
/** Keys some cases write that mcp-assert has no check for (its YAML reader ignores them, so do we). */
const IGNORED_BY_MCP_ASSERT = new Set(['error']);

/** The tool cases of the suite (the `trajectory_*` files check recorded skill traces, not a server). */
export function readOriginalCases(casesDir: string): OriginalCase[] {
  return readdirSync(casesDir)
    .filter((f) => f.endsWith('.yaml') && !f.startsWith('trajectory_'))
    .sort()
    .map((file) => {
      const doc = parse(readFileSync(join(casesDir, file), 'utf8')) as { name: string; setup?: ToolCall[]; assert: OriginalCase['assert']; timeout?: string };
      const unknown = Object.keys(doc.assert.expect).filter((k) => !KNOWN_EXPECTATIONS.has(k) && !IGNORED_BY_MCP_ASSERT.has(k));
      if (unknown.length > 0) throw new Error(`${file}: expectation ${unknown.join(', ')} is not implemented by this runner`);
      return { file, name: doc.name, setup: doc.setup ?? [], assert: doc.assert, timeoutMs: durationMs(doc.timeout ?? '30s') };
    });
}

function durationMs(text: string): number {
  const match = /^(\d+)(ms|s|m)$/.exec(text);
  if (!match) throw new Error(`unknown duration ${text}`);
  const n = Number(match[1]);
  return match[2] === 'ms' ? n : match[2] === 's' ? n * 1000 : n * 60_000;
}

/** `{{fixture}}` and captured `{{name}}`s replaced in every string of a call's arguments. */
export function substitute(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => vars[name] ?? whole);
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  return value;
}

/** mcp-assert's capture: `$.a.b` or `$.a[0].b` in the result text parsed as JSON. */
export function captureJsonPath(text: string, path: string): string {
  let current: unknown = JSON.parse(text);
  for (const part of path.replace(/^\$\./, '').split('.')) {
    const indexed = /^(\w+)\[(\d+)\]$/.exec(part);
    const key = indexed ? indexed[1]! : part;
    current = (current as Record<string, unknown> | undefined)?.[key];
    if (indexed) current = (current as unknown[] | undefined)?.[Number(indexed[2])];
    if (current === undefined) throw new Error(`capture ${path}: ${part} not found in ${text.slice(0, 200)}`);
  }
  return typeof current === 'string' ? current : JSON.stringify(current);
}

/** The first expectation the result fails, in mcp-assert's order, or undefined when all hold. */
export function firstFailure(expect: Expectation, text: string, isError: boolean): string | undefined {
  if (expect.not_error && isError) return `expected no error, got isError: ${text.slice(0, 300)}`;
  if (expect.is_error && !isError) return `expected an error, got: ${text.slice(0, 300)}`;
  const trimmed = text.trim();
  if (expect.not_empty && ['', 'null', '[]', '{}'].includes(trimmed)) return `expected a non-empty result, got ${JSON.stringify(trimmed)}`;
  for (const s of expect.contains ?? []) if (!text.includes(s)) return `expected the result to contain ${JSON.stringify(s)}, got: ${text.slice(0, 300)}`;
  for (const s of expect.not_contains ?? []) if (text.includes(s)) return `expected the result not to contain ${JSON.stringify(s)}`;
  if (expect.min_results !== undefined || expect.max_results !== undefined) {
    const count = resultCount(text);
    if (count === undefined) return `min/max_results: the result is not an array or an object with locations/items/results/references/symbols: ${text.slice(0, 200)}`;
    if (expect.min_results !== undefined && count < expect.min_results) return `expected at least ${expect.min_results} results, got ${count}`;
    if (expect.max_results !== undefined && count > expect.max_results) return `expected at most ${expect.max_results} results, got ${count}`;
  }
  return undefined;
}

function resultCount(text: string): number | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(parsed)) return parsed.length;
  for (const key of ['locations', 'items', 'results', 'references', 'symbols']) {
    const v = (parsed as Record<string, unknown> | null)?.[key];
    if (Array.isArray(v)) return v.length;
  }
  return undefined;
}
