// The sqlite amalgamation as a workspace: sqlite3.c and its headers from npm's better-sqlite3, a
// small program that includes sqlite3.h, and a compile database for both. Shared by the field tests
// (corpora.ts) and the benchmarks (test/bench), which cannot import TypeScript.
import { cpSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export const SQLITE_INCLUDER = `#include <stdio.h>
#include "sqlite3.h"

/* Opens an in-memory database and prints the library's version. */
int open_and_report(void) {
  sqlite3 *db = 0;
  int rc = sqlite3_open(":memory:", &db);
  if (rc != SQLITE_OK) return rc;
  printf("%s\\n", sqlite3_libversion());
  return sqlite3_close(db);
}

int main(void) {
  return open_and_report();
}
`;

/** Writes the workspace into `root` (an existing directory); the reason when it cannot. */
export function copySqlite(root) {
  let deps;
  try {
    deps = join(dirname(require.resolve('better-sqlite3/package.json')), 'deps', 'sqlite3');
  } catch {
    return 'better-sqlite3 is not installed (pnpm install brings it as a devDependency)';
  }
  for (const file of ['sqlite3.c', 'sqlite3.h', 'sqlite3ext.h']) cpSync(join(deps, file), join(root, file));
  writeFileSync(join(root, 'main.c'), SQLITE_INCLUDER);
  const entry = (file) => ({ directory: root, file: join(root, file), arguments: ['cc', '-c', '-I', root, file] });
  writeFileSync(join(root, 'compile_commands.json'), JSON.stringify([entry('main.c'), entry('sqlite3.c')], null, 2) + '\n');
  return undefined;
}
