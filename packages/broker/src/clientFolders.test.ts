import { describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { filterAnswer } from './answerFilter.js';
import { ClientFolders } from './clientFolders.js';

const folder = (path: string) => ({ uri: pathToUri(path), name: path });
const loc = (path: string) => ({ uri: pathToUri(path), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } });

describe('ClientFolders', () => {
  it('gives the server the union: a folder joins with its first client and leaves with its last', () => {
    const f = new ClientFolders('/work/root');
    expect(f.change(1, { added: [folder('/lib/a')] })).toBe(true);
    expect(f.change(2, { added: [folder('/lib/a'), folder('/lib/b/')] })).toBe(true);
    expect(f.union()).toEqual(['/work/root', '/lib/a', '/lib/b']);
    expect(f.change(1, { removed: [folder('/lib/a')] })).toBe(false);
    expect(f.union()).toEqual(['/work/root', '/lib/a', '/lib/b']);
    // Removing what it never added changes nothing.
    expect(f.change(1, { removed: [folder('/lib/b')] })).toBe(false);
    expect(f.dropClient(2)).toBe(true);
    expect(f.union()).toEqual(['/work/root']);
    expect(f.dropClient(2)).toBe(false);
  });

  it('ignores the root and folders inside it (everyone\'s), and URIs that are not files', () => {
    const f = new ClientFolders('/work/root');
    expect(f.change(1, { added: [folder('/work/root'), folder('/work/root/sub'), { uri: 'untitled:x', name: 'x' }] })).toBe(false);
    expect(f.change(1, { removed: [folder('/work/root')] })).toBe(false);
    expect(f.union()).toEqual(['/work/root']);
  });

  it('shows a client the root, its own folders and files in no folder; hides what lies only in others\' folders', () => {
    const f = new ClientFolders('/work/root');
    expect(f.visibility(1)).toBeUndefined();
    f.change(1, { added: [folder('/lib/a')] });
    f.change(2, { added: [folder('/lib')] });
    expect(f.visibility(1)).toBeDefined();
    const one = f.visibility(1) as (p: string) => boolean;
    const two = f.visibility(2) as (p: string) => boolean;
    // Client 1 added /lib/a but not /lib.
    expect(one('/lib/a/x.py')).toBe(true);
    expect(one('/lib/other/x.py')).toBe(false);
    expect(one('/work/root/m.py')).toBe(true);
    expect(one('/usr/lib/python3.11/os.py')).toBe(true);
    // Client 2 added /lib, which holds /lib/a.
    expect(two('/lib/a/x.py')).toBe(true);
    // A client with no folders of its own sees none of theirs.
    const three = f.visibility(3) as (p: string) => boolean;
    expect(three('/lib/a/x.py')).toBe(false);
    expect(three('/libx/y.py')).toBe(true);
  });
});

describe('filterAnswer', () => {
  const hidden = (path: string) => !path.startsWith('/other/');
  const range = loc('/x').range;

  it('filters Location[], LocationLink[] and a single Location', () => {
    expect(filterAnswer('textDocument/references', [loc('/mine/a.py'), loc('/other/b.py')], hidden)).toEqual([loc('/mine/a.py')]);
    const link = (p: string) => ({ targetUri: pathToUri(p), targetRange: range, targetSelectionRange: range });
    expect(filterAnswer('textDocument/definition', [link('/other/b.py'), link('/mine/a.py')], hidden)).toEqual([link('/mine/a.py')]);
    expect(filterAnswer('textDocument/definition', loc('/other/b.py'), hidden)).toBeNull();
    expect(filterAnswer('textDocument/implementation', loc('/mine/a.py'), hidden)).toEqual(loc('/mine/a.py'));
  });

  it('filters workspace symbols (SymbolInformation and WorkspaceSymbol) and hierarchy items', () => {
    const sym = (p: string) => ({ name: 's', kind: 12, location: { uri: pathToUri(p) } });
    expect(filterAnswer('workspace/symbol', [sym('/other/b.py'), sym('/mine/a.py')], hidden)).toEqual([sym('/mine/a.py')]);
    const item = (p: string) => ({ name: 'f', kind: 12, uri: pathToUri(p), range, selectionRange: range });
    expect(filterAnswer('textDocument/prepareCallHierarchy', [item('/other/b.py')], hidden)).toEqual([]);
    expect(filterAnswer('callHierarchy/incomingCalls', [{ from: item('/other/b.py'), fromRanges: [] }, { from: item('/mine/a.py'), fromRanges: [] }], hidden)).toHaveLength(1);
    expect(filterAnswer('callHierarchy/outgoingCalls', [{ to: item('/other/b.py'), fromRanges: [] }], hidden)).toEqual([]);
    expect(filterAnswer('typeHierarchy/subtypes', [item('/mine/a.py'), item('/other/c.py')], hidden)).toEqual([item('/mine/a.py')]);
  });

  it('filters document links (fragment ignored) and rename edits; passes other methods and non-file URIs', () => {
    const links = [{ range, target: `${pathToUri('/other/b.py')}#L3` }, { range, target: 'https://example.com/x' }, { range }];
    expect(filterAnswer('textDocument/documentLink', links, hidden)).toEqual(links.slice(1));
    const edit = {
      changes: { [pathToUri('/other/b.py')]: [], [pathToUri('/mine/a.py')]: [] },
      documentChanges: [{ textDocument: { uri: pathToUri('/other/b.py'), version: 1 }, edits: [] }, { kind: 'rename', oldUri: pathToUri('/mine/a.py'), newUri: pathToUri('/mine/c.py') }],
    };
    expect(filterAnswer('textDocument/rename', edit, hidden)).toEqual({ changes: { [pathToUri('/mine/a.py')]: [] }, documentChanges: [edit.documentChanges[1]] });
    const hover = { contents: 'x' };
    expect(filterAnswer('textDocument/hover', hover, hidden)).toBe(hover);
    expect(filterAnswer('textDocument/references', null, hidden)).toBeNull();
  });
});
