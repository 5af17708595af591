import { describe, expect, it } from 'vitest';
import { globToRegExp, matchesAnyGlob, withoutExcludedFiles } from './globFilter.js';

describe('globToRegExp / matchesAnyGlob', () => {
  const match = (path: string, ...globs: string[]) => matchesAnyGlob(path, globs.map(globToRegExp));

  it('** spans directories, * and ? stay within one', () => {
    expect(match('vendor/a/b.go', 'vendor/**')).toBe(true);
    expect(match('src/gen/x_gen.go', '**/*_gen.go')).toBe(true);
    expect(match('x_gen.go', '**/*_gen.go')).toBe(true);
    expect(match('src/a.ts', 'src/*.ts')).toBe(true);
    expect(match('src/sub/a.ts', 'src/*.ts')).toBe(false);
    expect(match('src/a1.ts', 'src/a?.ts')).toBe(true);
  });

  it('matches the base name as well as the whole path, and dots literally', () => {
    expect(match('app/routes.py', 'routes.py')).toBe(true);
    expect(match('app/routesXpy', 'routes.py')).toBe(false);
  });
});

describe('withoutExcludedFiles', () => {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  it('drops the changes and document changes of excluded files and names them', () => {
    const out = withoutExcludedFiles(
      {
        changes: { 'file:///a.py': [{ range, newText: 'x' }], 'file:///b.py': [{ range, newText: 'y' }] },
        documentChanges: [{ textDocument: { uri: 'file:///c.py', version: 1 }, edits: [{ range, newText: 'z' }] }, { kind: 'rename', oldUri: 'file:///b.py', newUri: 'file:///d.py' }],
      },
      (uri) => uri.includes('b.py'),
    );
    expect(Object.keys(out.edit.changes ?? {})).toEqual(['file:///a.py']);
    expect(out.edit.documentChanges).toHaveLength(1);
    expect(out.excludedUris).toEqual(['file:///b.py']);
  });
});
