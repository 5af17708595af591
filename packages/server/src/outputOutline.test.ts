import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import { selectTools } from '@agent-lsp/tools';
import { FIELDS_DOCUMENTED_ONCE, outlineOutputSchema } from './outputOutline.js';
import { fullOutputSchema, toolSchemas } from './toolList.js';

type Schema = Record<string, unknown>;


/**
 * A value the schema describes, the `pick`-th of each choice (enum value, union branch, type), with
 * every property present (`all`) or only the required ones: results take any of these forms.
 */
function sample(node: unknown, root: Schema, pick: number, all: boolean, depth = 0): unknown {
  if (node === null || typeof node !== 'object' || depth > 12) return 'any';
  const s = node as Schema;
  if (typeof s['$ref'] === 'string') {
    const path = s['$ref'].replace(/^#\//, '').split('/');
    return sample(path.reduce<unknown>((n, k) => (n as Schema)[k], root), root, pick, all, depth + 1);
  }
  if ('const' in s) return s['const'];
  if (Array.isArray(s['enum'])) return s['enum'][pick % s['enum'].length];
  const branches = (s['anyOf'] ?? s['oneOf']) as unknown[] | undefined;
  if (branches) return sample(branches[pick % branches.length], root, pick, all, depth + 1);
  const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [s['type'] as string | undefined];
  switch (types[pick % types.length]) {
    case 'object': {
      const required = new Set((s['required'] as string[] | undefined) ?? []);
      const out: Schema = {};
      for (const [k, v] of Object.entries((s['properties'] as Schema | undefined) ?? {})) if (all || required.has(k)) out[k] = sample(v, root, pick, all, depth + 1);
      return out;
    }
    case 'array':
      return all ? [sample(s['items'], root, pick, all, depth + 1)] : [];
    case 'string':
      return 'x';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return pick % 2 === 0;
    case 'null':
      return null;
    default:
      return {};
  }
}

describe('output schema outlines', () => {
  const tools = selectTools();
  const listed = toolSchemas(tools);
  const ajv = new AjvJsonSchemaValidator();

  it('accept every form of every tool\'s result that its full output schema accepts', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const def of tools) {
      const full = fullOutputSchema(def);
      const validFull = ajv.getValidator(full);
      const validOutline = ajv.getValidator(listed[def.name]!.outputSchema as Schema);
      for (let pick = 0; pick < 6; pick++) {
        for (const all of [true, false]) {
          const result = sample(full, full, pick, all);
          // The sample must be a result the tool may send, else it proves nothing.
          if (!validFull(result).valid) continue;
          checked++;
          const verdict = validOutline(result);
          if (!verdict.valid) failures.push(`${def.name}: ${verdict.errorMessage} for ${JSON.stringify(result).slice(0, 200)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Most samples are results: the check above is not vacuous.
    expect(checked).toBeGreaterThan(tools.length * 8);
  });

  it('name every top-level field of the result, and say nothing of their shapes nor which are always present', () => {
    for (const def of tools) {
      const outline = listed[def.name]!.outputSchema as Schema;
      const fields = Object.keys(def.output).filter((k) => !FIELDS_DOCUMENTED_ONCE.has(k));
      expect(outline, def.name).toEqual({
        type: 'object',
        properties: Object.fromEntries(fields.map((k) => [k, {}])),
      });
    }
    expect(outlineOutputSchema({ type: 'object', properties: { ready: { type: 'boolean' }, n: { type: 'number', description: 'd' } }, required: ['ready', 'n'], additionalProperties: false })).toEqual({
      type: 'object',
      properties: { n: {} },
    });
  });
});
