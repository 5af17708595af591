import { FileChangeType } from 'vscode-languageserver-protocol';
import { describe, expect, it } from 'vitest';
import { pathToUri } from '@agent-lsp/protocol';
import { MAX_RECENT_OPENED, RECENT_CHANGE_MS, RecentFileChanges } from './recentChanges.js';

describe('RecentFileChanges', () => {
  it('keeps files created or changed lately, newest last, and forgets deleted, opened and old ones', () => {
    let now = 1_000_000;
    const recent = new RecentFileChanges(() => now);
    recent.note([
      { uri: pathToUri('/w/a.ts'), type: FileChangeType.Created },
      { uri: pathToUri('/w/b.ts'), type: FileChangeType.Changed },
      { uri: pathToUri('/w/c.ts'), type: FileChangeType.Created },
    ]);
    now += 10;
    recent.note([{ uri: pathToUri('/w/a.ts'), type: FileChangeType.Changed }, { uri: pathToUri('/w/c.ts'), type: FileChangeType.Deleted }]);
    expect(recent.recent()).toEqual(['/w/b.ts', '/w/a.ts']);
    recent.forget('/w/b.ts');
    expect(recent.recent()).toEqual(['/w/a.ts']);
    now += RECENT_CHANGE_MS + 1;
    expect(recent.recent()).toEqual([]);
  });

  it('gives at most MAX_RECENT_OPENED, the newest', () => {
    const recent = new RecentFileChanges(() => 5);
    recent.note(Array.from({ length: MAX_RECENT_OPENED + 5 }, (_, i) => ({ uri: pathToUri(`/w/f${i}.ts`), type: FileChangeType.Created })));
    const list = recent.recent();
    expect(list).toHaveLength(MAX_RECENT_OPENED);
    expect(list.at(-1)).toBe(`/w/f${MAX_RECENT_OPENED + 4}.ts`);
    expect(list[0]).toBe('/w/f5.ts');
  });
});
