import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOOL_CATALOG } from '../catalog.js';
import { TOOL_EXAMPLES } from './examples.js';
import { renderToolsDoc, schemaType } from './toolsDoc.js';

const DOC_URL = new URL('../../../../docs/tools.md', import.meta.url);
const REGENERATE = 'docs/tools.md is stale: run `npx tsc -b && node scripts/gen-tools-doc.mjs` and commit the result.';

describe('tool examples', () => {
  it.each(TOOL_CATALOG.map((t) => [t.name, t] as const))('%s has an example whose args validate against its input schema', (name, tool) => {
    const example = TOOL_EXAMPLES[name];
    expect(example, `no example for ${name} in examples.ts`).toBeDefined();
    const parsed = z.object(tool.input).strict().safeParse(example?.args);
    expect(parsed.success, parsed.error ? z.prettifyError(parsed.error) : '').toBe(true);
    expect(example?.result.trim()).not.toBe('');
  });

  it('has no example for a tool that does not exist', () => {
    const names = new Set(TOOL_CATALOG.map((t) => t.name));
    expect(Object.keys(TOOL_EXAMPLES).filter((n) => !names.has(n))).toEqual([]);
  });
});

describe('renderToolsDoc', () => {
  const doc = renderToolsDoc(TOOL_CATALOG, TOOL_EXAMPLES);

  it('has a section for every tool and lists every argument', () => {
    for (const tool of TOOL_CATALOG) {
      expect(doc).toContain(`### ${tool.name}\n`);
      expect(doc).toContain(`](#${tool.name})`);
      const section = doc.slice(doc.indexOf(`### ${tool.name}\n`)).split(/\n### /)[0] ?? '';
      const [, afterArgs = ''] = section.split('**Arguments**');
      const [argTable = '', afterOutput = ''] = afterArgs.split('**Output fields**');
      for (const arg of Object.keys(tool.input)) expect(argTable, `${tool.name} argument ${arg}`).toContain(`| \`${arg}\` |`);
      for (const field of Object.keys(tool.output)) expect(afterOutput, `${tool.name} output ${field}`).toContain(`| \`${field}\` |`);
      if (Object.keys(tool.input).length === 0) expect(argTable).toContain('None.');
    }
  });

  it('explains the shared conventions', () => {
    for (const word of ['1-based', 'position_pattern', '@@', '`ready`', '`total`', '`complete`', '`limit`', '`offset`', 'wait_for_ready', 'ready_timeout_seconds']) {
      expect(doc).toContain(word);
    }
  });

  it('is deterministic and ends with one newline', () => {
    expect(renderToolsDoc(TOOL_CATALOG, TOOL_EXAMPLES)).toBe(doc);
    expect(doc.endsWith('\n') && !doc.endsWith('\n\n')).toBe(true);
  });

  it('fences results that contain backticks with a longer fence', () => {
    const tool = TOOL_CATALOG[0];
    if (!tool) throw new Error('empty catalog');
    const out = renderToolsDoc([tool], { [tool.name]: { args: {}, result: '```python\nx\n```' } });
    expect(out).toContain('````text\n```python\nx\n```\n````');
  });

  it('names JSON Schema types readably', () => {
    expect(schemaType({ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 })).toBe('integer');
    expect(schemaType({ type: 'integer', exclusiveMinimum: 0 })).toBe('integer (> 0)');
    expect(schemaType({ type: 'array', items: { type: 'string' } })).toBe('string[]');
    expect(schemaType({ enum: ['a', 'b'] })).toBe('"a" | "b"');
    expect(schemaType({ anyOf: [{ type: 'string' }, { type: 'number' }] })).toBe('string | number');
  });
});

describe('docs/tools.md', () => {
  it('is what renderToolsDoc writes for the current catalog and examples', () => {
    let committed: string;
    try {
      committed = readFileSync(DOC_URL, 'utf8');
    } catch {
      throw new Error(`docs/tools.md is missing. ${REGENERATE}`);
    }
    expect(committed, REGENERATE).toBe(renderToolsDoc(TOOL_CATALOG, TOOL_EXAMPLES));
  });
});
