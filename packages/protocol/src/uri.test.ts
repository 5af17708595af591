import { describe, expect, it } from 'vitest';
import { pathToUri, uriToPath } from './uri.js';

describe('pathToUri', () => {
  it('makes a file:// URI with an empty authority', () => {
    expect(pathToUri('/work/app/main.py')).toBe('file:///work/app/main.py');
  });

  it('percent-encodes spaces, percent signs, # and ?', () => {
    expect(pathToUri('/work/my project/a.ts')).toBe('file:///work/my%20project/a.ts');
    expect(pathToUri('/work/100%/a.ts')).toBe('file:///work/100%25/a.ts');
    expect(pathToUri('/work/#1/a?.ts')).toBe('file:///work/%231/a%3F.ts');
  });

  it('percent-encodes non-ASCII characters as UTF-8', () => {
    expect(pathToUri('/work/café/漢字.py')).toBe('file:///work/caf%C3%A9/%E6%BC%A2%E5%AD%97.py');
    expect(pathToUri('/work/😀.ts')).toBe('file:///work/%F0%9F%98%80.ts');
  });
});

describe('uriToPath', () => {
  it('decodes percent-encoded characters', () => {
    expect(uriToPath('file:///work/my%20project/caf%C3%A9.py')).toBe('/work/my project/café.py');
  });

  it.each([
    '/work/app/main.py',
    '/work/my project/a b.ts',
    '/work/100%/50%25.ts',
    '/work/#hash/?query.ts',
    '/work/café/漢字/😀.py',
    "/work/it's [odd] {name}; & = +.ts",
  ])('round-trips %s', (path) => {
    expect(uriToPath(pathToUri(path))).toBe(path);
  });

  it.each(['untitled:Untitled-1', 'https://example.com/a.ts', 'vscode-notebook-cell:/x.ipynb#cell1', '/work/app/main.py'])(
    'gives undefined for the non-file URI %s',
    (uri) => {
      expect(uriToPath(uri)).toBeUndefined();
    },
  );

  it('gives undefined for a file URI with a remote host', () => {
    expect(uriToPath('file://server/share/a.py')).toBeUndefined();
  });

  it('gives undefined for a file URI with an encoded slash', () => {
    expect(uriToPath('file:///work/a%2Fb.py')).toBeUndefined();
  });
});
