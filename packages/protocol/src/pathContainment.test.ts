import { describe, expect, it } from 'vitest';
import { displayPath, isWithin } from './pathContainment.js';

describe('isWithin', () => {
  it('counts the root itself as within', () => {
    expect(isWithin('/work/app', '/work/app')).toBe(true);
  });

  it('counts files and folders below the root', () => {
    expect(isWithin('/work/app', '/work/app/main.py')).toBe(true);
    expect(isWithin('/work/app', '/work/app/src/deep/mod.ts')).toBe(true);
  });

  it('does not count a sibling folder whose name starts with the root name', () => {
    expect(isWithin('/a/b', '/a/bc')).toBe(false);
    expect(isWithin('/a/b', '/a/bc/file.ts')).toBe(false);
    expect(isWithin('/work/app', '/work/app-old/main.py')).toBe(false);
  });

  it('does not count the parent or a sibling', () => {
    expect(isWithin('/work/app', '/work')).toBe(false);
    expect(isWithin('/work/app', '/work/other/main.py')).toBe(false);
    expect(isWithin('/work/app', '/')).toBe(false);
  });

  it('counts a child whose name merely starts with two dots', () => {
    expect(isWithin('/work/app', '/work/app/..hidden')).toBe(true);
    expect(isWithin('/work/app', '/work/app/...')).toBe(true);
  });

  it('counts everything as within the filesystem root', () => {
    expect(isWithin('/', '/etc/hosts')).toBe(true);
  });

  it('tolerates a trailing slash on the root', () => {
    expect(isWithin('/work/app/', '/work/app/main.py')).toBe(true);
    expect(isWithin('/work/app/', '/work/apple')).toBe(false);
  });
});

describe('displayPath', () => {
  it('shows a path inside a root relative to it', () => {
    expect(displayPath(['/work/app'], '/work/app/src/main.py')).toBe('src/main.py');
  });

  it('shows the root itself as "."', () => {
    expect(displayPath(['/work/app'], '/work/app')).toBe('.');
  });

  it('uses the first root that contains the path', () => {
    const roots = ['/work/app/lib', '/work/app'];
    expect(displayPath(roots, '/work/app/lib/util.ts')).toBe('util.ts');
    expect(displayPath(roots, '/work/app/main.ts')).toBe('main.ts');
    expect(displayPath(['/work/app', '/work/app/lib'], '/work/app/lib/util.ts')).toBe('lib/util.ts');
  });

  it('keeps a path outside every root absolute', () => {
    expect(displayPath(['/work/app'], '/usr/lib/python3/typing.pyi')).toBe('/usr/lib/python3/typing.pyi');
  });

  it('keeps a path in a sibling with a common prefix absolute, rather than "../bc/..."', () => {
    expect(displayPath(['/a/b'], '/a/bc/x.ts')).toBe('/a/bc/x.ts');
  });

  it('keeps every path absolute when there are no roots', () => {
    expect(displayPath([], '/work/app/main.py')).toBe('/work/app/main.py');
  });
});
