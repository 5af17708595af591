/**
 * One worked example of a tool for docs/tools.md. Its own file so that examples.ts (which gathers
 * them) and docs/*Examples.ts (which write them) both depend on it, not on each other.
 */
export interface ToolExample {
  /** Arguments as an agent sends them; they must validate against the tool's input schema. */
  args: Record<string, unknown>;
  /** The text answer, or an excerpt of it (cuts are marked with …). */
  result: string;
}
