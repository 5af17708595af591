/**
 * How deep a JSON message may nest. LSP messages nest a dozen levels or so; JSON.stringify and
 * JSON.parse recurse, so a few thousand levels overflow the stack of whoever (de)serializes the
 * message next. Messages are held to this limit where they enter: the broker's frame guard (on
 * the raw bytes) and the MCP tools that pass an agent's values through to a server.
 */
export const MAX_JSON_DEPTH = 256;

/**
 * Whether a value nests objects and arrays deeper than `limit` levels (a scalar is depth 0,
 * `[]` depth 1). Iterative, so it never overflows the stack itself; a cycle counts as too deep.
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, depth } = stack.pop() as { value: unknown; depth: number };
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
