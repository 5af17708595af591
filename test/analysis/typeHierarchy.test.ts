import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { FIXTURES } from '../helpers/paths.js';
import { positionOf } from '../helpers/text.js';

/** type_hierarchy on HasArea (protocol/interface) ← Shape ← Rectangle ← Square, per language. */

interface Entry {
  name: string;
  file: string;
  line: number;
  column: number;
  level: number;
  via?: string;
}

function levels(list: unknown): string[] {
  return (list as Entry[]).map((e) => `${e.level} ${e.name}${e.via ? ` via ${e.via}` : ''}`);
}

const LANGUAGES = [
  { language: 'python', root: join(FIXTURES, 'py-graph'), file: 'graph/shapes.py', square: 'class @@Square', hasArea: 'class @@HasArea', extraSuper: ['4 Protocol via HasArea'], blankLine: 2 },
  { language: 'typescript', root: join(FIXTURES, 'ts-graph'), file: 'src/shapes.ts', square: 'class @@Square', hasArea: 'interface @@HasArea', extraSuper: [], blankLine: 4 },
];

describe.each(LANGUAGES)('type_hierarchy with $language', (fx) => {
  let agent: AgentLspClient;

  beforeAll(async () => {
    agent = await startAgentLsp();
    ok(await agent.call('start_lsp', { root_dir: fx.root, language_id: fx.language }));
  });
  afterAll(async () => {
    await agent?.close();
  });

  it('lists the supertypes of Square transitively, each at its definition', async () => {
    const data = ok(await agent.call('type_hierarchy', { file_path: fx.file, position_pattern: fx.square, direction: 'supertypes' }));
    // Neither pyright nor typescript-language-server has a type hierarchy: the answer says it is derived.
    expect(data['derived_from']).toBe('class_heads');
    expect(levels(data['supertypes'])).toEqual(['1 Rectangle', '2 Shape via Rectangle', '3 HasArea via Shape', ...fx.extraSuper]);
    const rectangle = (data['supertypes'] as Entry[])[0];
    expect(rectangle).toMatchObject({ file: fx.file, ...positionOf(join(fx.root, fx.file), 'Rectangle') });
    expect(data['subtypes']).toBeUndefined();
  });

  it('lists the subtypes of the protocol/interface transitively', async () => {
    const data = ok(await agent.call('type_hierarchy', { file_path: fx.file, position_pattern: fx.hasArea }));
    expect(levels(data['subtypes'])).toEqual(['1 Shape', '2 Rectangle via Shape', '3 Square via Rectangle']);
    expect(Array.isArray(data['supertypes'])).toBe(true);
  });

  it('refuses a position outside any type (a blank line between declarations)', async () => {
    const answer = await agent.call('type_hierarchy', { file_path: fx.file, line: fx.blankLine, column: 1 });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/No class, interface or struct at/);
  });
});
