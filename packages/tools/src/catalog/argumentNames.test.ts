import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkArgumentNames, closestName, unknownArguments } from './argumentNames.js';

const argumentNamesError = (called: string, def: Parameters<typeof checkArgumentNames>[1], args: Record<string, unknown>) => checkArgumentNames(called, def, args).error;
import { selectTools } from '../catalog.js';
import { TOOL_EXAMPLES } from './examples.js';
import { originalArgument, originalArgumentEntries } from './originalArguments.js';

const tools = selectTools();
const byName = new Map(tools.flatMap((def) => [def.name, ...(def.aliases ?? [])].map((n) => [n, def] as const)));
const tool = (name: string) => {
  const def = byName.get(name);
  if (!def) throw new Error(`no tool ${name}`);
  return def;
};

describe('strict argument names', () => {
  it('names the closest valid argument of a slip, and none of a word that is not one', () => {
    expect(closestName('include_declaraton', ['file_path', 'include_declaration', 'line'])).toBe('include_declaration');
    expect(closestName('colum', ['line', 'column', 'limit'])).toBe('column');
    expect(closestName('postion_patern', ['position_pattern', 'line_scope_start'])).toBe('position_pattern');
    expect(closestName('filepath', ['file_path', 'line'])).toBe('file_path');
    expect(closestName('banana', ['file_path', 'line', 'column'])).toBeUndefined();
  });

  it('refuses a misspelt optional argument of find_references, naming include_declaration', () => {
    const error = argumentNamesError('find_references', tool('find_references'), { file_path: 'a.py', line: 1, column: 1, include_declaraton: false });
    expect(error).toMatch(/^Unknown argument for find_references, so nothing was done:/);
    expect(error).toContain('include_declaraton is not an argument of find_references: did you mean include_declaration?');
    expect(argumentNamesError('find_references', tool('find_references'), { file_path: 'a.py', line: 1, colum: 3 })).toContain('did you mean column?');
    expect(argumentNamesError('find_references', tool('find_references'), { file_path: 'a.py', line: 1, column: 1, include_declaration: false })).toBeUndefined();
  });

  it('checks nested objects: an edit of simulate_chain, a change of did_change_watched_files', () => {
    const chain = argumentNamesError('simulate_chain', tool('simulate_chain'), { session_id: 's', edits: [{ file_path: 'a.go', new_text: 'x' }, { file_path: 'a.go', start_line: 1, start_colum: 2, new_text: '' }] });
    expect(chain).toContain('edits[1].start_colum is not an argument of simulate_chain: did you mean start_column?');
    expect(chain).not.toContain('edits[0]');
    const unknown = unknownArguments(tool('did_change_watched_files').input, { changes: [{ file_path: 'a', type: 'changed', kind: 'x' }] });
    expect(unknown.map((u) => u.path)).toEqual(['changes[0].kind']);
  });

  it('takes a name any member of a union declares, refuses one none declares, and leaves open objects and records alone', () => {
    const shape = {
      change: z.union([z.object({ kind: z.literal('a'), uri: z.string() }), z.object({ kind: z.literal('b'), old_uri: z.string() })]),
      loose: z.looseObject({ a: z.number() }).optional(),
      map: z.record(z.string(), z.object({ n: z.number() })).optional(),
    };
    expect(unknownArguments(shape, { change: { kind: 'b', old_uri: 'x' }, loose: { a: 1, b: 2 } })).toEqual([]);
    expect(unknownArguments(shape, { change: { kind: 'a', url: 'x' } }).map((u) => [u.path, u.valid])).toEqual([['change.url', ['kind', 'uri', 'old_uri']]]);
    expect(unknownArguments(shape, { map: { k: { n: 1, m: 2 } } }).map((u) => u.path)).toEqual(['map.k.m']);
  });

  it("accepts the original's language_id wherever a tool takes a file, and refuses its other names with what replaces them", () => {
    expect(argumentNamesError('find_references', tool('find_references'), { file_path: 'a.go', line: 6, column: 6, language_id: 'go' })).toBeUndefined();
    expect(argumentNamesError('open_document', tool('open_document'), { file_path: 'a.go', text: 'package a' })).toContain('text: open_document reads the file on disk');
    expect(argumentNamesError('detect_changes', tool('detect_changes'), { scope: 'staged' })).toContain('pass staged: true');
  });

  it("takes the original's names that mean ours as ours (symbol_file for file_path), refusing both at once", () => {
    const def = tool('get_cross_repo_references');
    expect(checkArgumentNames('get_cross_repo_references', def, { symbol_file: '/w/a.go', line: 7, column: 6, consumer_roots: [] })).toEqual({ args: { file_path: '/w/a.go', line: 7, column: 6, consumer_roots: [] } });
    expect(checkArgumentNames('get_cross_repo_references', def, { symbol_file: '/w/a.go', file_path: '/w/b.go', consumer_roots: [] }).error).toContain("symbol_file is the original agent-lsp's name for file_path: give one of them.");
    expect(checkArgumentNames('get_symbol_source', tool('get_symbol_source'), { file_path: 'a.go', line: 3, character: 5 }).args).toEqual({ file_path: 'a.go', line: 3, column: 5 });
  });

  it("lists only names of the original's that a tool here does not declare (an entry a tool came to declare would be dead)", () => {
    for (const [called, path] of originalArgumentEntries()) {
      const def = tool(called);
      const [name, nested] = path.split('[].');
      const declared = nested === undefined ? name! in def.input : unknownArguments(def.input, { [name!]: [{ [nested]: 1 }] }).length === 0;
      expect(declared, `${called} ${path}`).toBe(false);
      const entry = originalArgument(called, def, path);
      expect(entry?.refused ?? entry?.renamed, `${called} ${path}`).toBeDefined();
      if (entry?.renamed !== undefined) expect(entry.renamed in def.input, `${called} ${path} → ${entry.renamed}`).toBe(true);
    }
  });

  it('passes every documented example (docs/tools.md) of every tool', () => {
    for (const [name, example] of Object.entries(TOOL_EXAMPLES)) expect(argumentNamesError(name, tool(name), example.args), name).toBeUndefined();
  });
});
