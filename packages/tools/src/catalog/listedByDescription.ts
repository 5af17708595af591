import { z } from 'zod';

/**
 * Arguments that tools/list shows as `{type: "object", description}` instead of their whole JSON
 * Schema: a shape every model knows by name (an LSP WorkspaceEdit's schema was 2.6 KB of the
 * listing, which an agent's context pays for on every turn), spelt out in the description. The
 * argument is still checked against its full schema before any handler runs, and docs/tools.md
 * names its fields.
 */
const listedByDescriptionOnly = z.registry();

/** `schema`, listed by its description only (it must have one). */
export function listedByDescription<T extends z.ZodType>(schema: T): T {
  if (!schema.description) throw new Error('listedByDescription: a schema listed by its description needs one');
  listedByDescriptionOnly.add(schema);
  return schema;
}

/** The `override` of z.toJSONSchema that lists such a schema by its description. */
export function listByDescription(ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }): void {
  if (!listedByDescriptionOnly.has(ctx.zodSchema as z.ZodType)) return;
  const description = ctx.jsonSchema['description'];
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, { type: 'object', description });
}
