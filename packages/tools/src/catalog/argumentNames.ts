import type { z } from 'zod';
import { originalArgument } from './originalArguments.js';
import type { AnyToolDefinition } from './toolDefinition.js';

/**
 * Strict argument names, for every tool at once: zod drops a key its object does not declare, so
 * a misspelt optional argument (`include_declaraton`, `colum`) would silently change the answer.
 * A call is checked against the tool's input schema before it runs, nested objects too (the items
 * of simulate_chain's `edits`...): an unknown name is refused, naming the closest valid one, and
 * nothing is done. The original agent-lsp's names are known (originalArguments.ts): accepted
 * where they mean what they meant there, else refused with what replaces them here.
 */

/** A name the schema does not declare: its path (`edits[0].colum`) and the names valid there. */
export interface UnknownArgument {
  path: string;
  name: string;
  valid: readonly string[];
}

/** zod 4's definition of a schema: only the parts the walk reads. */
interface ZodDef {
  type: string;
  shape?: z.ZodRawShape;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: readonly z.ZodType[];
  in?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): ZodDef => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch', 'success']);

/** The names `value` carries that `schema` does not declare, at any depth. */
function unknownIn(schema: z.ZodType, value: unknown, path: string): UnknownArgument[] {
  const def = defOf(schema);
  if (WRAPPERS.has(def.type) && def.innerType) return unknownIn(def.innerType, value, path);
  if (def.type === 'lazy' && def.getter) return unknownIn(def.getter(), value, path);
  // A preprocessing pipe may rename keys before the schema sees them: what it accepts is its own affair.
  if (def.type === 'pipe') return def.in && defOf(def.in).type !== 'transform' ? unknownIn(def.in, value, path) : [];
  if (def.type === 'object' && def.shape) return unknownInObject(def.shape, def.catchall, value, path);
  if (def.type === 'array' && def.element && Array.isArray(value)) return value.flatMap((item, i) => unknownIn(def.element as z.ZodType, item, `${path}[${i}]`));
  if (def.type === 'record' && def.valueType && isPlainObject(value)) return Object.entries(value).flatMap(([k, v]) => unknownIn(def.valueType as z.ZodType, v, `${path}.${k}`));
  if (def.type === 'intersection' && def.left && def.right) return commonUnknowns([unknownIn(def.left, value, path), unknownIn(def.right, value, path)]);
  // A union: a name is unknown only when no member that could take the value declares it.
  if (def.type === 'union' && def.options) return commonUnknowns(def.options.map((option) => unknownIn(option, value, path)));
  return [];
}

function unknownInObject(shape: z.ZodRawShape, catchall: z.ZodType | undefined, value: unknown, path: string): UnknownArgument[] {
  if (!isPlainObject(value)) return [];
  // z.looseObject / .passthrough(): other keys are part of the contract.
  const open = catchall !== undefined && defOf(catchall).type !== 'never';
  const valid = Object.keys(shape);
  return Object.entries(value).flatMap(([name, v]) => {
    const at = path ? `${path}.${name}` : name;
    const field = shape[name];
    if (field) return unknownIn(field as z.ZodType, v, at);
    return open ? [] : [{ path: at, name, valid }];
  });
}

function commonUnknowns(lists: UnknownArgument[][]): UnknownArgument[] {
  const [first, ...rest] = lists;
  if (!first) return [];
  return first.filter((u) => rest.every((l) => l.some((o) => o.path === u.path))).map((u) => ({ ...u, valid: [...new Set(lists.flatMap((l) => l.find((o) => o.path === u.path)?.valid ?? []))] }));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The argument names of `args` that the tool's input schema does not declare, nested ones too. */
export function unknownArguments(shape: z.ZodRawShape, args: unknown): UnknownArgument[] {
  return unknownInObject(shape, undefined, args, '');
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((d[i - 1] as number[])[j]! + 1, (d[i] as number[])[j - 1]! + 1, (d[i - 1] as number[])[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (d[i - 2] as number[])[j - 2]! + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length]!;
}

/** The valid name closest to `name`, when it is close enough to be a slip (a third of its length, at least 2 edits), or one contains the other. */
export function closestName(name: string, valid: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of valid) {
    const distance = editDistance(wanted, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  if (!best) return undefined;
  if (best.distance <= Math.max(2, Math.floor(wanted.length / 3))) return best.name;
  return valid.find((c) => c.length >= 4 && wanted.length >= 4 && (c.includes(wanted) || wanted.includes(c)));
}

/** A call's arguments with the original's names that mean ours renamed, or why they are refused. */
export type CheckedArguments = { args: Record<string, unknown>; error?: undefined } | { error: string; args?: undefined };

/**
 * Checks a call's argument names. `called` is the name the tool was called by (an alias of the
 * original's may take other arguments than our tool). The original's names that mean one of ours
 * come back under ours; a name nobody declares is refused, with the closest valid one.
 */
export function checkArgumentNames(called: string, def: AnyToolDefinition, args: Record<string, unknown>): CheckedArguments {
  const renamed: Record<string, unknown> = { ...args };
  const refused = unknownArguments(def.input, args).flatMap((u) => {
    const original = originalArgument(called, def, u.path);
    if (original?.accepted !== undefined) return [];
    if (original?.renamed !== undefined) {
      if (original.renamed in args) return [`${u.path} is the original agent-lsp's name for ${original.renamed}: give one of them.`];
      renamed[original.renamed] = renamed[u.path];
      delete renamed[u.path];
      return [];
    }
    if (original) return [`${u.path}: ${original.refused}`];
    const near = closestName(u.name, u.valid);
    return [`${u.path} is not an argument of ${called}${near ? `: did you mean ${near}?` : '.'} Valid here: ${u.valid.join(', ') || '(none)'}.`];
  });
  if (refused.length === 0) return { args: renamed };
  return { error: `Unknown argument${refused.length > 1 ? 's' : ''} for ${called}, so nothing was done:\n${refused.map((r) => `- ${r}`).join('\n')}` };
}
