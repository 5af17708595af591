import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';

/**
 * The whole catalogue an agent's context pays for on every turn, without output schemas: about
 * 16k tokens for the full catalogue of the original agent-lsp's size (66+ tools, ~800 bytes each).
 * Clients that cap what they show narrow it with `--tools <groups>`.
 */
const CATALOGUE_LIMIT_BYTES = 64_000;
/**
 * The whole answer with output schemas (issue 33: at most the original's). The original agent-lsp
 * 0.19.5's tools/list answer, `{"tools": [...]}` as its MCP client parses it, is 61,066 bytes of
 * UTF-8 for 65 tools without output schemas (test/bench/toolListing.mjs measures both side by
 * side). Ours carries outlines of the results (packages/server/src/outputOutline.ts): a tool or an
 * argument added has to pay for its bytes.
 */
const ORIGINAL_LISTING_BYTES = 61_066;
/** One tool's whole entry (name, title, description, input schema, annotations) without its output schema. */
const TOOL_LIMIT_BYTES = 3_600;
/** One tool's description: a sentence or three; longer explanations belong in docs/tools.md. */
const DESCRIPTION_LIMIT_BYTES = 160;

const bytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x), 'utf8');

describe('tools/list size', () => {
  let agent: AgentLspClient;
  beforeAll(async () => {
    agent = await startAgentLsp();
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('fits: the whole listing (at most the original agent-lsp\'s), the catalogue without output schemas, and every description', async () => {
    const { tools } = await agent.client.listTools();
    const rows = tools.map((t) => {
      const { outputSchema, ...lean } = t;
      return { name: t.name, description: Buffer.byteLength(t.description ?? '', 'utf8'), lean: bytes(lean), full: bytes(t), output: outputSchema ? bytes(outputSchema) : 0 };
    });
    rows.sort((a, b) => b.lean - a.lean);
    const total = { lean: rows.reduce((n, r) => n + r.lean, 0), full: bytes({ tools }) };
    console.log(
      [
        `tools/list: ${tools.length} tools, ${total.full} bytes with output schemas (the original's ${ORIGINAL_LISTING_BYTES}), ${total.lean} without (limit ${CATALOGUE_LIMIT_BYTES})`,
        'tool                          description  without-output  with-output',
        ...rows.map((r) => `${r.name.padEnd(30)}${String(r.description).padStart(11)}${String(r.lean).padStart(16)}${String(r.full).padStart(13)}`),
      ].join('\n'),
    );
    expect(total.lean).toBeLessThanOrEqual(CATALOGUE_LIMIT_BYTES);
    expect(total.full).toBeLessThanOrEqual(ORIGINAL_LISTING_BYTES);
    expect(rows.filter((r) => r.lean > TOOL_LIMIT_BYTES).map((r) => `${r.name}: ${r.lean} bytes`)).toEqual([]);
    expect(rows.filter((r) => r.description > DESCRIPTION_LIMIT_BYTES).map((r) => `${r.name}: ${r.description} bytes`)).toEqual([]);
  });
});
