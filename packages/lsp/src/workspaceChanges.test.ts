import { describe, expect, it } from 'vitest';
import { WorkspaceChanges } from './workspaceChanges.js';

const u = (name: string) => `file:///w/${name}`;
const MAIN = '#include "sqlite3.h"\nint main(void) { return 0; }\n';

describe('WorkspaceChanges.lastAffecting', () => {
  it('counts another document\'s change unless it is a C source the file does not include', () => {
    const changes = new WorkspaceChanges();
    changes.document(u('sqlite3.h'));
    const headerChange = changes.sent;
    changes.document(u('sqlite3.c'));
    // main.c includes the header, not sqlite3.c: only the header's change may change its diagnostics.
    expect(changes.lastAffecting(u('main.c'), MAIN)).toBe(headerChange);
    // Without its text nothing is known of what it includes.
    expect(changes.lastAffecting(u('main.c'))).toBe(changes.sent);
    // A file that includes the source, and a Python file, count it.
    expect(changes.lastAffecting(u('amalgam.c'), `${MAIN}#include "sqlite3.c"\n`)).toBe(changes.sent);
    expect(changes.lastAffecting(u('a.py'), 'import os\n')).toBe(changes.sent);
  });

  it('counts every change beyond documents (folders, settings: which files they reach is not known)', () => {
    const changes = new WorkspaceChanges();
    changes.document(u('sqlite3.c'));
    changes.beyondDocuments();
    expect(changes.lastAffecting(u('main.c'), MAIN)).toBe(changes.sent);
  });

  it('counts files changed on disk as those files\' changes, and all of them for every document past the ones it remembers', () => {
    const changes = new WorkspaceChanges();
    changes.files([u('sqlite3.h')]);
    const headerChange = changes.sent;
    changes.files([u('sqlite3.c'), u('shell.c')]);
    expect(changes.lastAffecting(u('main.c'), MAIN)).toBe(headerChange);
    expect(changes.lastAffecting(u('a.py'), 'import os\n')).toBe(changes.sent);
    // A checkout of thousands of files: no longer one by one.
    changes.files(Array.from({ length: 5001 }, (_, i) => u(`src/f${i}.c`)));
    expect(changes.lastAffecting(u('main.c'), MAIN)).toBe(changes.sent);
  });
});
