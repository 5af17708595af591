import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/**
 * The TypeScript lib directory (`typescript.tsdk`, the one holding tsserver.js) a server working
 * on `rootDir` is given: the project's own TypeScript (node_modules/typescript of the root or a
 * directory above it, as its editor would pick), else the one agent-lsp depends on.
 */
export function typescriptLibDir(rootDir: string): string | undefined {
  for (let dir = rootDir; ; dir = dirname(dir)) {
    const lib = join(dir, 'node_modules', 'typescript', 'lib');
    if (existsSync(join(lib, 'tsserverlibrary.js'))) return realpathSync(lib);
    if (dirname(dir) === dir) break;
  }
  try {
    return realpathSync(join(dirname(require.resolve('typescript/package.json')), 'lib'));
  } catch {
    return undefined;
  }
}
