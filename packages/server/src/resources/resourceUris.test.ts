import { describe, expect, it } from 'vitest';
import { diagnosticsUri, parseResourceUri, ResourceUriError } from './resourceUris.js';

describe('resource URIs', () => {
  it('takes an absolute path (percent-decoded) and 1-based positions apart', () => {
    expect(parseResourceUri('lsp-hover:///home/u/my%20proj/app.py?line=3&column=5')).toEqual({
      kind: 'hover',
      tool: 'inspect_symbol',
      filePath: '/home/u/my proj/app.py',
      args: { file_path: '/home/u/my proj/app.py', line: 3, column: 5 },
    });
    expect(parseResourceUri('lsp-completions:///a.ts?column=1&line=2').args).toEqual({ file_path: '/a.ts', line: 2, column: 1 });
  });

  it('reads diagnostics of one file, of every open file without a path, and root-relative with a host part', () => {
    expect(parseResourceUri('lsp-diagnostics:///home/u/app.py').args).toEqual({ file_path: '/home/u/app.py' });
    expect(parseResourceUri('lsp-diagnostics://').args).toEqual({});
    expect(parseResourceUri('lsp-diagnostics:///').filePath).toBeUndefined();
    expect(parseResourceUri('lsp-diagnostics://src/app.py').filePath).toBe('src/app.py');
  });

  it('refuses unknown schemes, missing or non-positive positions, and hover without a file', () => {
    expect(() => parseResourceUri('lsp-symbols:///a.py')).toThrow(ResourceUriError);
    expect(() => parseResourceUri('lsp-hover:///a.py?line=1')).toThrow(/column must be a 1-based integer/);
    expect(() => parseResourceUri('lsp-hover:///a.py?line=0&column=1')).toThrow(/line must be a 1-based integer/);
    expect(() => parseResourceUri('lsp-hover:///a.py?line=1.5&column=1')).toThrow(/line/);
    expect(() => parseResourceUri('lsp-completions://?line=1&column=1')).toThrow(/names no file/);
    expect(() => parseResourceUri('not a uri')).toThrow(/not a URI/);
  });

  it('builds the diagnostics URI of a path so that it parses back', () => {
    const uri = diagnosticsUri('/home/u/my proj/a#b.py');
    expect(parseResourceUri(uri).filePath).toBe('/home/u/my proj/a#b.py');
  });
});
