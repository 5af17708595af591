// Issue 19, item 6: how cold time, warm time and memory grow with the workspace. One Python corpus
// grown in place from the stdlib (1×) to about 2× and 3× its files with Django and other
// third-party sources; the same find_references query (os.path.join in shutil.py) on each.
import { benchCorpus, timedOut } from './coldWarm.mjs';
import { growPythonCorpus, pythonStdlib } from './corpora.mjs';

export const LARGE_HEADING = '## Large workspaces';
const MULTIPLES = [2, 3];

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const m = (ms) => `${Math.round(ms)} ms`;
const mib = (bytes) => (bytes ? `${Math.round(bytes / 1048576)} MiB` : '?');
const times = (a, b) => (a && b ? `×${(b / a).toFixed(1)}` : '?');

/**
 * `stdlib`: the stdlib's benchCorpus result from the cold/warm section, reused as the 1× row (same
 * corpus, same query, same measurement); measured here when absent (`--only large`).
 * Returns the section and the rows (for the plot).
 */
export async function largeWorkspacesSection({ tmp, log, stdlib }) {
  let corpus = { ...pythonStdlib(tmp, 'python-large'), label: 'Python 1× (stdlib)' };
  const base = corpus.files;
  const reused = Boolean(stdlib);
  const rows = [{ ...(stdlib ?? (await benchCorpus(corpus, log, { serverAlone: false }))), multiple: 1 }];
  for (const multiple of MULTIPLES) {
    corpus = growPythonCorpus(corpus, base, multiple);
    rows.push({ ...(await benchCorpus(corpus, log, { serverAlone: false })), multiple });
  }
  const first = rows[0];
  const last = rows.at(-1);
  const table = rows.map(({ corpus: c, multiple, cold, warm, rss }) =>
    `| ${multiple}× | ${c.files} (${(c.files / base).toFixed(2)}×) | ${cold.total}${cold.complete ? '' : ' (incomplete!)'} | ${s(cold.processMs)}${timedOut(cold)} | ${m(warm.processMs)}${timedOut(warm)} | ${m(warm.callsMs)} | ${mib(rss)} |`,
  );
  const section = `${LARGE_HEADING}

How the first answer's cost grows with the workspace (test/bench/largeWorkspaces.mjs; \`--only large\`).
One Python corpus: the standard library (1×, ${base} files), grown in place with third-party sources to
at least 2× and 3× its files: Django and its dependencies from Debian's python3-django first, then the
rest of /usr/lib/python3/dist-packages (largest first), then pure-Python packages of python3's own
site-packages where dist-packages is not enough. Same query on each: \`find_references\` of
\`${first.corpus.pattern}\` in ${first.corpus.file} with the complete answer (stdlib code uses
os.path.join everywhere, and so does the third-party code). **Cold** and **warm** are measured as
in the cold/warm section (fresh front, spawn to the complete answer; warm is the median of 3 fresh
fronts on the warm broker, and its tool calls alone); **RSS**: broker + pyright after the warm fronts.
A call that hits agent-lsp's 120 s request timeout is asked again, as its error tells an agent to
do; the time then includes the failed call, and the table says so.
${reused ? 'The 1× row is the stdlib row of the cold/warm section (same run).' : 'The 1× row was measured in this section.'}

| workspace | Python files | references | cold | warm (process) | warm (tool calls) | broker + server RSS |
| --- | --- | --- | --- | --- | --- | --- |
${table.join('\n')}

From 1× to ${last.multiple}× (${times(first.corpus.files, last.corpus.files)} files): cold ${times(first.cold.processMs, last.cold.processMs)}, warm ${times(first.warm.processMs, last.warm.processMs)} (tool calls ${times(first.warm.callsMs, last.warm.callsMs)}), memory ${times(first.rss, last.rss)}.
Packages added: ${last.corpus.sources}.
`;
  return { section, rows };
}
