import { describe, expect, it } from 'vitest';
import { selectTools } from '@agent-lsp/tools';
import { compactToolList } from './toolList.js';

describe('the tools/list answer', () => {
  it('is built once per tool set and shared by every MCP server of the process (HTTP sessions)', () => {
    const first = compactToolList(selectTools());
    // Another session's server: its own definitions array, the same tools.
    expect(compactToolList(selectTools())).toBe(first);
    expect(first.map((t) => t.name)).toEqual(selectTools().map((d) => d.name));
    // Another tool set gets its own list, whose schemas are the same immutable objects.
    const some = selectTools().slice(0, 3);
    const partial = compactToolList(some);
    expect(partial).not.toBe(first);
    expect(partial[0]?.inputSchema).toBe(first[0]?.inputSchema);
  });
});
