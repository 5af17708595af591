/**
 * The output schema tools/list sends: a tool result's outline, not its full shape.
 *
 * Every result is checked on our side against the tool's full zod output schema before it is sent
 * (toolCalls.ts), so a client's validation of it finds nothing to reject. The full schemas were
 * 148 KB of the 196 KB tools/list, and the MCP SDK client compiled them with ajv at 130–170 ms
 * before its first call; typed outlines of the top-level fields (536 of them) still cost it ~3×
 * what the names alone do (each typed field is a check with its error code generated, while a
 * field that may hold anything generates none). So the outline names every top-level field of the
 * result (`{}`: its shape is the tool's, in docs/tools.md, with which fields are always present —
 * a `required` list cost the client more than every name: with ajv's allErrors each required
 * field is a check with its error code generated, 30 of them ~3 ms of ~50); it leaves out the
 * fields documented once in docs/tools.md for every tool: the envelope any result may carry
 * (readiness, inferred root, phase warning) and a page's echo of its request (offset, limit,
 * returned; total and complete stay named). It only widens what the schema accepts: a result valid
 * against the full schema is valid against its outline (outputOutline.test.ts).
 */

type Schema = Record<string, unknown>;

/**
 * Fields runTool, the readiness gate and the phase gate may add to any result (optional in every
 * tool's output), and the echo of a page's request in every paged list's.
 */
export const FIELDS_DOCUMENTED_ONCE: ReadonlySet<string> = new Set(['workspace_root', 'root_inferred', 'phase_warning', 'ready', 'progress', 'state', 'offset', 'limit', 'returned']);

const isSchema = (x: unknown): x is Schema => x !== null && typeof x === 'object' && !Array.isArray(x);

/** The outline of a tool's full output schema (a JSON Schema object with properties). */
export function outlineOutputSchema(full: Schema): Schema {
  const properties: Schema = {};
  for (const name of Object.keys(isSchema(full['properties']) ? full['properties'] : {})) if (!FIELDS_DOCUMENTED_ONCE.has(name)) properties[name] = {};
  return { type: 'object', properties };
}
