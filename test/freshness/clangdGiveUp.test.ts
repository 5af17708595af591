// clangd's index is current only once clangd has built every file that changed
// (clangdIndexFreshness.ts); a text it has not built within the give-up time is given up on so no
// call waits for ever. Answers given after that must not look complete: clangd's index may still
// hold the file's previous text. The give-up time is made 1 ms here (AGENT_LSP_BUILD_GIVE_UP_MS),
// so a closed file changed on disk is given up on before clangd can build it; once clangd has built
// it (the file opened by a call), answers are complete again. Direct mode and through a broker
// (which relays the partial readiness).
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrokerTestScope } from '../helpers/brokers.js';
import { ok, startAgentLsp, type AgentLspClient } from '../helpers/mcpClient.js';
import { onPath } from '../helpers/onPath.js';

const installed = onPath('clangd');
if (!installed) console.warn('clangd is not installed: the give-up test did not run (apt-get install clangd)');
const title = installed ? 'clangd: a changed file given up on' : 'clangd: a changed file given up on (NOT INSTALLED — did not run)';

const scope = new BrokerTestScope();

afterEach(async () => {
  await scope.cleanup();
});

interface References {
  complete: unknown;
  partial: unknown;
  text: string;
  places: string[];
}

async function referencesOfManhattan(front: AgentLspClient): Promise<References> {
  const result = await front.call('find_references', { file_path: 'main.c', position_pattern: '@@manhattan(a, b)' });
  const data = ok(result);
  const places = (data['locations'] as { file: string; line: number }[]).map((l) => `${l.file}:${l.line}`).sort();
  return { complete: data['complete'], partial: data['partial'], text: result.text, places };
}

const inSource = (places: string[]): number => places.filter((p) => p.startsWith('point.c:')).length;

const MODES = [
  { mode: 'direct mode', args: ['--daemon', 'never'] },
  { mode: 'through a broker', args: ['--daemon', 'always'] },
];

describe.skipIf(!installed)(title, () => {
  for (const { mode, args } of MODES) {
    it(`${mode}: an answer says INCOMPLETE, naming the file, until clangd has built it; whole once it has`, async () => {
      const root = join(scope.root('c-basic'), 'c-basic');
      const source = join(root, 'point.c');
      const front = await startAgentLsp({ args, env: { AGENT_LSP_HOME: scope.home(), AGENT_LSP_BUILD_GIVE_UP_MS: '1' } });
      scope.fronts.push(front);
      ok(await front.call('start_lsp', { root_dir: root, language_id: 'c' }));
      const before = await referencesOfManhattan(front);
      expect(before.complete).not.toBe(false);
      expect(before.partial).toBeUndefined();

      // A second caller appended to point.c, with enough code after it that clangd takes a while to
      // build the file (so the give-up comes first; had clangd won, the answer must hold the call).
      const padding = Array.from({ length: 20_000 }, (_, i) => `static int pad${i}(int v) { return absolute(v) + ${i}; }`).join('\n');
      writeFileSync(source, readFileSync(source, 'utf8') + `\nint twice(struct point a, struct point b) { return 2 * manhattan(a, b); }\n${padding}\n`);
      const givenUp = await referencesOfManhattan(front);
      if (givenUp.complete === false) {
        expect(String(givenUp.partial)).toContain('point.c');
        expect(givenUp.text).toMatch(/^INCOMPLETE/);
      } else {
        expect(inSource(givenUp.places), `an answer that says it is complete: ${givenUp.text}`).toBe(inSource(before.places) + 1);
      }

      // Opening point.c makes clangd build it: its index holds the new text, and the answer is whole.
      ok(await front.call('get_diagnostics', { file_path: 'point.c' }));
      const after = await referencesOfManhattan(front);
      expect(after.complete, after.text).not.toBe(false);
      expect(after.partial).toBeUndefined();
      expect(inSource(after.places), after.text).toBe(inSource(before.places) + 1);
    });
  }

  it('direct mode: while a new file is given up on, callers say INCOMPLETE and a rename is refused; both whole once clangd has built it', async () => {
    const root = join(scope.root('c-basic'), 'c-basic');
    const front = await startAgentLsp({ args: ['--daemon', 'never'], env: { AGENT_LSP_HOME: scope.home(), AGENT_LSP_BUILD_GIVE_UP_MS: '1' } });
    scope.fronts.push(front);
    ok(await front.call('start_lsp', { root_dir: root, language_id: 'c' }));
    // A file made after the start: held open for clangd, given up on at once and closed again unbuilt.
    writeFileSync(join(root, 'extra.c'), '#include "point.h"\nint once(struct point a) { return manhattan(a, a); }\n');
    const at = { file_path: 'point.c', position_pattern: 'int @@manhattan(' };
    // Either still given up on (the usual case here), or clangd built the file in time (a loaded
    // machine: its push was waiting when the give-up ran): then the answers must be whole.
    const callers = await front.call('find_callers', at);
    if (callers.data['complete'] === false) expect(callers.text).toMatch(/^INCOMPLETE.*extra\.c/);
    else expect(callers.text).toContain('once');
    const rename = await front.call('rename_symbol', { ...at, new_name: 'taxicab', dry_run: true });
    if (rename.isError) expect(rename.text).toMatch(/nothing was changed.*index misses part of the workspace.*extra\.c/s);
    else expect((rename.data['edits'] as { file: string }[]).map((e) => e.file)).toContain('extra.c');

    ok(await front.call('get_diagnostics', { file_path: 'extra.c' }));
    const whole = await front.call('find_callers', at);
    expect(whole.data['partial'], whole.text).toBeUndefined();
    expect(whole.text).toContain('once');
    const renamed = ok(await front.call('rename_symbol', { ...at, new_name: 'taxicab', dry_run: true }));
    expect((renamed['edits'] as { file: string }[]).map((e) => e.file)).toContain('extra.c');
  });

  it('direct mode: a closed file clangd built before, changed where no watcher looks, is built again before the answer naming it is asked again', async () => {
    const root = join(scope.root('c-basic'), 'c-basic');
    // A directory the watchers skip (dot-directories): only the answer's own check sees the change.
    mkdirSync(join(root, '.gen'));
    const extra = join(root, '.gen', 'extra.c');
    writeFileSync(extra, '#include "../point.h"\nint once(struct point a) { return manhattan(a, a); }\n');
    const front = await startAgentLsp({ args: ['--daemon', 'never'], env: { AGENT_LSP_HOME: scope.home() } });
    scope.fronts.push(front);
    ok(await front.call('start_lsp', { root_dir: root, language_id: 'c' }));
    ok(await front.call('get_diagnostics', { file_path: '.gen/extra.c' }));
    ok(await front.call('close_document', { file_path: '.gen/extra.c' }));
    const inExtra = (places: string[]): number => places.filter((p) => p.startsWith('.gen/extra.c:')).length;
    expect(inExtra((await referencesOfManhattan(front)).places)).toBe(1);

    // A second call, and enough code after it that clangd takes a while to build the file.
    const padding = Array.from({ length: 20_000 }, (_, i) => `static int pad${i}(int v) { return v + ${i}; }`).join('\n');
    appendFileSync(extra, `int twice(struct point a) { return manhattan(a, a); }\n${padding}\n`);
    const after = await referencesOfManhattan(front);
    expect(inExtra(after.places), after.text).toBe(2);
  });
});
