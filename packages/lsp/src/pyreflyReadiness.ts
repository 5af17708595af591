import { canaryReadiness } from './progressReadiness.js';
import { canary, type ReadinessFamily } from './readinessContext.js';
import { walkSourceTreeAsync } from './sourceTree.js';

/** pyrefly starts building its workspace index (`Populating up to 2000 files in the workspace ("/root").`). */
const POPULATING = /Populating up to (\d+) files in the workspace/;
/** How many files its walk of the workspace found (`Prepare to check 890 files.`). */
const FILES_FOUND = /Prepare to check (\d+) files/;
/** The index is built: workspace/symbol and cross-file answers cover every file found from here on. */
const POPULATED = /Populated all files in the workspace/;
/**
 * A pyrefly that logs no `Populating` line this long after it first answered does not say when its
 * index is built (another version, or indexing off): it is taken as ready once it answers.
 */
const NO_POPULATING_MS = 10_000;

/**
 * pyrefly: it indexes the workspace's files (up to its --workspace-indexing-limit, 2000) in the
 * background after initialize, answers workspace/symbol and references only from the files it has
 * indexed (nothing at all before the index is built: on Django ~20 s after it answered its first
 * request), and says it is done only on stderr. Ready at that line; partial when its walk found
 * none of the workspace's Python files (pyrefly 1.4.1 gives up the whole walk at a broken
 * symbolic link, e.g. Debian's Django's jquery.js) or stopped at its limit.
 */
export const pyreflyReadiness: ReadinessFamily = (ctx) => {
  const { conn, store, stderrLines } = ctx;
  // Not our child (a server reached over TCP): its stderr is not ours to read.
  if (!stderrLines) return canaryReadiness(ctx);
  const { readiness } = conn;
  readiness.indexing({ title: 'pyrefly is starting' });
  let answered = false;
  let populating = false;
  let limit = Number.POSITIVE_INFINITY;
  let found: number | undefined;
  let populated = false;
  const settle = async () => {
    if (!answered || readiness.state === 'ready') return;
    if (populating && !populated) return;
    readiness.ready(populated && found !== undefined ? await coverageGap(conn.rootDir, Object.keys(conn.server.extensions), found, limit) : undefined);
  };
  store.add(
    stderrLines((line) => {
      const start = POPULATING.exec(line);
      const count = FILES_FOUND.exec(line);
      if (start) {
        populating = true;
        populated = false;
        limit = Number(start[1]);
        if (readiness.state !== 'ready') readiness.indexing({ title: 'pyrefly is indexing the workspace' });
      } else if (count && populating) {
        found = Number(count[1]);
        if (readiness.state !== 'ready') readiness.indexing({ title: 'pyrefly is indexing the workspace', message: `${found} files` });
      } else if (POPULATED.test(line) && populating) {
        populated = true;
        void settle();
      }
    }),
  );
  canary(conn).then(
    () => {
      answered = true;
      ctx.later(NO_POPULATING_MS, () => void settle());
      if (populated) void settle();
    },
    () => undefined,
  );
};

/**
 * What pyrefly's index misses, when its walk found no file of a workspace that has some, or
 * stopped at its limit; undefined when it covers the workspace (its own excludes may differ a
 * little from ours: only those two cases are told).
 */
async function coverageGap(root: string, extensions: readonly string[], found: number, limit: number): Promise<string | undefined> {
  if (found > 0 && found < limit) return undefined;
  let files = 0;
  for await (const path of walkSourceTreeAsync(root)) {
    if (extensions.some((e) => path.endsWith(e))) files++;
    if (files > found && found > 0) break;
  }
  if (files <= found) return undefined;
  const why = found === 0 ? 'its walk of the workspace found no file (pyrefly 1.4 gives up the whole walk at a broken symbolic link anywhere under the root)' : `it stops at ${limit} files (--workspace-indexing-limit)`;
  return `pyrefly's workspace index holds ${found} of the ${found === 0 ? files : `${files}+`} Python files under ${root}: ${why}. Its workspace searches and references cover only the indexed files, the open ones and what they import: open the file that should hold a symbol, or search the text.`;
}
