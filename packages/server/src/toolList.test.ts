import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { selectTools } from '@agent-lsp/tools';
import { compactSchema, compactToolList } from './toolList.js';

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

  it('says of a bound only what a caller could get wrong, and lists a WorkspaceEdit by its description while checking it in full', () => {
    expect(compactSchema({ type: 'integer', minimum: 1, maximum: 9007199254740991 })).toEqual({ type: 'integer', minimum: 1 });
    // .positive(): an integer's exclusive bound as the equal inclusive one; a number's kept (0 is what a caller might mean).
    expect(compactSchema({ type: 'integer', exclusiveMinimum: 0, minimum: -9007199254740991 })).toEqual({ type: 'integer', minimum: 1 });
    expect(compactSchema({ type: 'number', exclusiveMinimum: 0 })).toEqual({ type: 'number', exclusiveMinimum: 0 });
    // A negative count or an empty name: no caller means them; the argument is still checked.
    expect(compactSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 0 }, s: { type: 'string', minLength: 1 } } })).toEqual({
      type: 'object',
      properties: { n: { type: 'integer' }, s: { type: 'string' } },
    });
    const applyEdit = compactToolList(selectTools()).find((t) => t.name === 'apply_edit');
    const listed = (applyEdit?.inputSchema.properties as Record<string, Record<string, unknown>>)['workspace_edit'];
    expect(listed).toEqual({ type: 'object', description: expect.stringContaining('WorkspaceEdit') });
    const def = selectTools().find((d) => d.name === 'apply_edit')!;
    expect(z.object(def.input).safeParse({ workspace_edit: { changes: { 'file:///a.py': [{ newText: 'x' }] } } }).success).toBe(false);
  });
});
