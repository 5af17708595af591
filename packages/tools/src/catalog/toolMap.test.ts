import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOL_CATALOG } from '../catalog.js';

const README = new URL('../../README.md', import.meta.url);

/** `| tool | handler |` rows of the README's map. */
function handlerMap(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const m of readFileSync(README, 'utf8').matchAll(/^\| ([a-z_]+) \| (\w+\.ts) \|$/gm)) rows.set(m[1]!, m[2]!);
  return rows;
}

describe('packages/tools/README.md maps every tool to its handler', () => {
  const rows = handlerMap();
  it('lists every tool of the catalogue, and no other', () => {
    expect([...rows.keys()].sort()).toEqual(TOOL_CATALOG.map((t) => t.name).sort());
  });
  it.each(TOOL_CATALOG.map((t) => t.name))('%s: the named handler file exports it', async (name) => {
    const file = rows.get(name);
    expect(file).toBeDefined();
    const handler = (await import(/* @vite-ignore */ `../tools/${file!.replace(/\.ts$/, '.js')}`)) as Record<string, unknown>;
    // By name: the catalogue may wrap a handler's definition (the answer cache does).
    const names = (v: unknown): unknown[] => (Array.isArray(v) ? v.flatMap(names) : [(v as { name?: unknown } | null)?.name]);
    expect(Object.values(handler).flatMap(names)).toContain(name);
  });
});
