// The same figure as previewSharing.mjs for clangd on the sqlite amalgamation: an editor's hovers in
// main.c while an agent's workspace-scope preview_edit runs on the same broker (`--daemon always`:
// clangd runs without one by default). Editing sqlite3.c, a source main.c does not include, the
// hovers go beside the agent's sections (packages/broker/src/besideLease.ts); editing sqlite3.h,
// which main.c includes, they wait for them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copySqlite } from '../field/sqliteCorpus.mjs';
import { call, front, hoverRow, idleHovers, measured, onWarmBroker, openHoverTarget } from './previewSharing.mjs';

export const SHARING_CLANGD_HEADING = "## Sharing a broker with an agent's workspace preview: clangd";

/** Each breaks something: a misspelt name in sqlite3.c; a parameter main.c's call does not pass. */
const PREVIEWS = [
  {
    label: 'sqlite3.c (a source main.c does not include): hovers go beside',
    file_path: 'sqlite3.c',
    old_text: 'SQLITE_API const char *sqlite3_libversion(void){ return sqlite3_version; }',
    new_text: 'SQLITE_API const char *sqlite3_libversion(void){ return sqlite3_versio; }',
  },
  {
    label: 'sqlite3.h (main.c includes it): hovers wait for each section',
    file_path: 'sqlite3.h',
    old_text: 'SQLITE_API const char *sqlite3_libversion(void);',
    new_text: 'SQLITE_API const char *sqlite3_libversion(int);',
  },
];

export async function previewSharingClangd(log) {
  const root = mkdtempSync(join(tmpdir(), 'agent-lsp-bench-share-c-'));
  const notRun = copySqlite(root);
  if (notRun) {
    rmSync(root, { recursive: true, force: true });
    return `${SHARING_CLANGD_HEADING}\n\nNot run: ${notRun}.\n`;
  }
  const rows = await onWarmBroker(
    root,
    'c',
    async (home) => {
      // Warms the broker: clangd indexes sqlite3.c in the background; not measured.
      const warm = await front(home, undefined, 'always');
      await call(warm, 'start_lsp', { root_dir: root, language_id: 'c' });
      await call(warm, 'find_references', { file_path: join(root, 'main.c'), line: 7, column: 13 });
      await warm.close();
    },
    async (light, home) => {
      const target = openHoverTarget(light, join(root, 'main.c'), 'sqlite3_open(', 'c');
      const idle = await idleHovers(light, target);
      const rows = [];
      for (const { label, ...edit } of PREVIEWS) {
        const r = await measured(home, root, light, target, undefined, { language: 'c', ...edit }, 'always');
        rows.push(hoverRow(log, label, r, idle, `${r.answer.confidence ?? '?'}${r.introduced !== undefined ? `, ${r.introduced} error(s) introduced` : ''}`));
      }
      return rows;
    },
  );
  return `${SHARING_CLANGD_HEADING}

Run on ${new Date().toISOString().slice(0, 10)}. The sqlite amalgamation (sqlite3.c, 9 MB, from npm's better-sqlite3) with a small
main.c that includes sqlite3.h and a compile database, clangd, one broker (\`--daemon always\`). An agent's fresh front calls
\`preview_edit\` with \`scope: "workspace"\` (default timeout_ms) while an editor on the same broker hovers \`sqlite3_open\` in
main.c, one hover after another until the preview answers. clangd settles a changed file by building its whole unit, which
cannot be cut into steps (docs/broker.md); reads of one C-family document whose unit the agent's section did not change go
beside the section (\`besideLease.ts\`), anything else waits for it. **Answer**: the preview's confidence and the errors it
counted (sqlite3.c's unit rarely builds within the default 8 s: then it is not examined, and says so).

| previewed edit | preview_edit time | leases | answer | hovers during it | hover p50, idle | hover p50 | hover p95 | hover max |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

Where the slowest hovers waited (2026-11-28, the broker's debug log beside each hover's times, load ~3–5): not at
the broker's gate but in clangd. Editing sqlite3.c, every hover went to clangd at once; the slowest (32 s) was
queued behind a rebuild of main.c that clangd had scheduled on a didSave (clangd rebuilds its open files on a
save) and could not start while its two worker threads built sqlite3.c; its answer came right after that build. Editing
sqlite3.h, the evaluation opens sqlite3.c (it defines the changed function) in every step, and clangd rebuilds the
9 MB unit each time: a hover waited 45 s after a section had ended, behind those builds. Both are clangd's work on
a unit that takes it 15–40 s to build, not a section holding the hover.

Target (issue 29 item 3, issue 32 item 3): an agent's exclusive sections hold another client a bounded time.
`;
}
